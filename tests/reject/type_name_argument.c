// Rejected: a type name where a call's argument goes, as a macro missing
// from the headers leaves it (bpftune's 6-argument BPF_KPROBE under libbpf
// 1.1, which has no ___bpf_kprobe_args6): the message names the token and
// the callee, as clang's "expected expression".
// CLANG: error
// ERROR: 14:41: expected an expression, found "struct", in the arguments of args6 (a type name where a value goes)
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct sock;
int consume(int);

SEC("socket")
int f(void *ctx) { return consume(args6(struct sock *sk, int x)); }

char LICENSE[] SEC("license") = "GPL";
