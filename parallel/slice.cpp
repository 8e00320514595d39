#include "parallel/slice.h"

#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace xq {
namespace {

// The kernel's struct sched_attr (glibc 2.36 declares neither it nor the
// calls; <linux/sched/types.h> clashes with <sched.h>).
struct SchedAttr {
  std::uint32_t size = sizeof(SchedAttr);
  std::uint32_t sched_policy = 0;
  std::uint64_t sched_flags = 0;
  std::int32_t sched_nice = 0;
  std::uint32_t sched_priority = 0;
  std::uint64_t sched_runtime = 0, sched_deadline = 0, sched_period = 0;
};

}  // namespace

bool set_thread_slice(std::uint64_t ns, std::uint64_t* old) {
  SchedAttr a;
  if (syscall(SYS_sched_getattr, 0, &a, sizeof a, 0) != 0 || a.sched_policy != SCHED_OTHER)
    return false;
  if (old != nullptr) *old = a.sched_runtime;
  a.sched_runtime = ns;
  a.sched_flags = 0;
  return syscall(SYS_sched_setattr, 0, &a, 0) == 0;
}

}  // namespace xq
