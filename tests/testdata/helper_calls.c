// Tests: calling helpers declared by libbpf's bpf_helper_defs.h:
// bpf_ktime_get_ns is monotonic, bpf_get_smp_processor_id is a valid CPU,
// bpf_get_prandom_u32 returns (with overwhelming probability) varying values.
// RUN: socket
// EXPECT: retval=0
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define CHECK(n, cond) do { if (!(cond)) return n; } while (0)

SEC("socket")
int helper_calls(struct __sk_buff *skb)
{
	__u64 t1 = bpf_ktime_get_ns();
	__u64 t2 = bpf_ktime_get_ns();
	__u32 cpu = bpf_get_smp_processor_id();
	__u32 r1 = bpf_get_prandom_u32(), r2 = bpf_get_prandom_u32(), r3 = bpf_get_prandom_u32();

	CHECK(1, t1 != 0 && t2 >= t1);
	CHECK(2, cpu < 4096);
	CHECK(3, r1 != r2 || r2 != r3);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: ; bpf_ktime_get_ns
// CHECK-NEXT: call 5
// CHECK: call 5
// CHECK: ; bpf_get_smp_processor_id
// CHECK-NEXT: call 8
// CHECK: ; bpf_get_prandom_u32
// CHECK-NEXT: call 7
// CHECK: call 7
// CHECK: call 7
