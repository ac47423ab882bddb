// Rejected: a variable named as an enumerator of the same scope (clang:
// "redefinition of 'X' as different kind of symbol"): beyla's
// `static const u64 BPF_F_CURRENT_NETNS = -1;` against a vmlinux.h whose
// enum has that enumerator compiled silently.
// CLANG: error
// ERROR: 11:18: redefinition of 'BPF_F_CURRENT_NETNS' as different kind of symbol
typedef unsigned long long u64;

enum { BPF_F_CURRENT_NETNS = -1L };

static const u64 BPF_F_CURRENT_NETNS = -1;

u64 get(void) { return BPF_F_CURRENT_NETNS; }
