"""Record-file IO, public: what the command line, :mod:`refscore.distributed`, test cases and reports read and
write.

- :mod:`refscore.io.records`: one record (hypothesis, references, optional system) from a JSON line, a CSV/TSV
  row or a Parquet row, with its layout (:class:`~refscore.io.records.RecordLayout`) and errors;
- :mod:`refscore.io.record_files`: record files cut into independent read units, read in bounded memory;
- :mod:`refscore.io.text_files`: a UTF-8 text file as one segment per line;
- :mod:`refscore.io.tables`: CSV/TSV rows; :mod:`refscore.io.parquet`: Parquet files opened within the budget;
- :mod:`refscore.io.json_lines`: JSON Lines read line by line, errors naming the line and the column;
- :mod:`refscore.io.digits`: Python's integer digit limit as an error naming the file and the line;
- :mod:`refscore.io.limits`: the read budget of every reader (``REFSCORE_MAX_LINE_BYTES`` per line,
  ``REFSCORE_MAX_INPUT_BYTES`` per input);
- :mod:`refscore.io.atomic`: atomic file output and the check of output paths before any work.

Import from the module that holds the name (``from refscore.io.records import RecordLayout``); the package itself
imports nothing, so ``import refscore.io`` stays free.
"""
