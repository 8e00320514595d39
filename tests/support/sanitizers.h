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

}  // namespace xq::test

#undef XQ_TEST_HAS_FEATURE
