// Whether this test binary runs under a sanitizer, for the tests that
// search fewer positions there (a search runs some 5-20 times slower, and
// the sanitizer checks each code path, not each position).
// GCC defines __SANITIZE_*__; Clang answers __has_feature.
#pragma once

#if defined(__has_feature)
#define XQ_TEST_HAS_FEATURE(x) __has_feature(x)
#else
#define XQ_TEST_HAS_FEATURE(x) 0
#endif

#include <string_view>

namespace xq::test {

#if defined(__SANITIZE_ADDRESS__) || XQ_TEST_HAS_FEATURE(address_sanitizer)
inline constexpr bool kAddressSanitized = true;
#else
inline constexpr bool kAddressSanitized = false;
#endif

#if defined(__SANITIZE_THREAD__) || XQ_TEST_HAS_FEATURE(thread_sanitizer)
inline constexpr bool kThreadSanitized = true;
#else
inline constexpr bool kThreadSanitized = false;
#endif

// Whether the stress suites (ctest label `stress`) run `backend` with
// `scheme`: always, but under ThreadSanitizer a distributed backend (mpi-*)
// runs two of its schemes, its default one and a locked one (mutex). Its
// ranks' tables are the shared-table code whose every scheme the same lane
// checks under the reference backends; what is the distributed backend's
// own (the wire, the threads that ship and store entries, the home ranks'
// searcher counts) takes the same paths whatever the scheme. They were the
// lane's two slowest suites (2026-11-28: 160 s of its 1,121 summed
// seconds); the uninstrumented run checks every scheme.
inline bool stress_runs_scheme(std::string_view backend, std::string_view scheme,
                               std::string_view default_scheme) {
  if (!kThreadSanitized || backend.substr(0, 4) != "mpi-") return true;
  return scheme == default_scheme || scheme == "mutex";
}

}  // namespace xq::test

#undef XQ_TEST_HAS_FEATURE
