from refscore.cli.main import main

raise SystemExit(main())
