// Ctrl-C and SIGTERM during a long kernel call. Python handles a signal only between bytecodes, so a nogil kernel
// that runs for minutes (EED of two 100,000-character lines is quadratic) would hold the user's Ctrl-C for all
// of that time. While an interruptible call runs, a handler installed here notes the signal (an atomic flag the
// kernel polls, e.g. once per row of its dynamic programme) and passes it on to the handler it replaced (Python's,
// which arranges the KeyboardInterrupt), so the kernel stops within a row and the caller raises as usual.
// Each extension module that includes this header has its own copy (its own flag); calls nest by a count.
#pragma once

#include <atomic>
#include <csignal>
#include <mutex>

namespace refscore {
namespace interrupt {

inline std::atomic<bool> requested{false};
inline std::atomic<int> last_signal{0};
inline std::mutex guard;
inline int depth = 0;
inline struct sigaction previous_int, previous_term;

inline void pass_on(int signum, const struct sigaction& previous, siginfo_t* info, void* context) {
    if (previous.sa_flags & SA_SIGINFO) {
        if (previous.sa_sigaction != nullptr) previous.sa_sigaction(signum, info, context);
    } else if (previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN && previous.sa_handler != nullptr) {
        previous.sa_handler(signum);
    }
}

inline bool ignored(const struct sigaction& previous) {
    return !(previous.sa_flags & SA_SIGINFO) && previous.sa_handler == SIG_IGN;
}

extern "C" inline void on_signal(int signum, siginfo_t* info, void* context) {
    const struct sigaction& previous = signum == SIGINT ? previous_int : previous_term;
    if (ignored(previous)) return;   // an ignored signal stops nothing
    last_signal.store(signum, std::memory_order_relaxed);
    requested.store(true, std::memory_order_relaxed);
    pass_on(signum, previous, info, context);
}

// Whether a signal arrived since the outermost begin(): kernels poll it and return early.
inline bool interrupted() noexcept { return requested.load(std::memory_order_relaxed); }

// Install the handlers for SIGINT and SIGTERM (outermost call only).
inline void begin() noexcept {
    std::lock_guard<std::mutex> lock(guard);
    if (depth++ > 0) return;
    requested.store(false, std::memory_order_relaxed);
    struct sigaction action {};
    action.sa_sigaction = on_signal;
    action.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, &previous_int);
    sigaction(SIGTERM, &action, &previous_term);
}

// Put the replaced handlers back (outermost call only); returns whether a signal arrived meanwhile. A signal
// whose replaced handler was the default one (SIGTERM when Python has no handler for it) is raised again now,
// with that default back in place: the process ends as it would have without the kernel.
inline bool end() noexcept {
    std::lock_guard<std::mutex> lock(guard);
    if (--depth > 0) return interrupted();
    sigaction(SIGINT, &previous_int, nullptr);
    sigaction(SIGTERM, &previous_term, nullptr);
    const bool arrived = requested.exchange(false, std::memory_order_relaxed);
    const int signum = last_signal.exchange(0, std::memory_order_relaxed);
    if (arrived && signum != 0) {
        const struct sigaction& previous = signum == SIGINT ? previous_int : previous_term;
        if (!(previous.sa_flags & SA_SIGINFO) && previous.sa_handler == SIG_DFL) std::raise(signum);
    }
    return arrived;
}

}  // namespace interrupt
}  // namespace refscore
