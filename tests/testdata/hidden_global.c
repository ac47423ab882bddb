// Tests: visibility("hidden") (libbpf's __hidden) gives STV_HIDDEN symbols,
// as clang writes them: a hidden bpf_spin_lock in its own data section is
// then not mmapable for libbpf (the kernel refuses a spin lock in an
// mmapable map, errno 524), and a hidden function is verified as static.
// RUN: xdp
// EXPECT: retval=0
// EXPECT-VAR: pub=3
// ASM: "hidden_add"
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct bpf_spin_lock lock __hidden SEC(".data.locked");
int counter __hidden SEC(".data.locked");
int pub;

__hidden int hidden_add(int *p, int v)
{
	*p += v;
	return *p;
}

SEC("xdp")
int hidden_global(struct xdp_md *ctx)
{
	bpf_spin_lock(&lock);
	counter++;
	bpf_spin_unlock(&lock);
	if (hidden_add(&pub, 3) != 3)
		return 1;
	return 0;
}

char _license[] SEC("license") = "GPL";

// CHECK: hidden_add: (section .text,
// CHECK: hidden_global: (section xdp,
// CHECK: r1 = lock ll
// CHECK-NEXT: ; bpf_spin_lock
// CHECK-NEXT: call 93
// CHECK: r1 = lock ll
// CHECK-NEXT: ; bpf_spin_unlock
// CHECK-NEXT: call 94
