// Tests: a static function called once is inlined when large (over 200 IR
// instructions, here its debug prints), as clang's bonus for a static
// function's last call inlines it: out of line, its frame added to the
// chain made 200 + 224 + 120 bytes, over 512 with a tail call in the
// program ("combined stack size of 3 calls is 560. Too large";
// opentelemetry-ebpf-profiler's get_stack_delta).
// RUN: socket
// EXPECT: retval=0
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

int debug;

struct {
	__uint(type, BPF_MAP_TYPE_PROG_ARRAY);
	__uint(max_entries, 4);
	__type(key, __u32);
	__type(value, __u32);
} progs SEC(".maps");

#define DBG(fmt, ...) ({ if (debug) { const char f_[] = fmt; bpf_trace_printk(f_, sizeof(f_), ##__VA_ARGS__); } })
#define D1(i) DBG("step " #i ": value %lx and %lx", tmp[(i) % 20] + (i), tmp[((i) + 3) % 20] ^ (i));
#define D5(i) D1(i) D1(i + 1) D1(i + 2) D1(i + 3) D1(i + 4)

static int big(struct __sk_buff *skb, __u64 *out)
{
	__u64 tmp[20];

	if (bpf_skb_load_bytes(skb, 0, tmp, sizeof(tmp)))
		return 1;
	D5(0) D5(5) D5(10) D5(15) D5(20) D5(25) D5(30)
	*out = tmp[12] + tmp[19];
	return 0;
}

static __attribute__((noinline)) int outer(struct __sk_buff *skb)
{
	__u64 regs[20];
	__u64 r = 0;

	if (big(skb, &r))
		return 0;
	if (bpf_skb_load_bytes(skb, 0, regs, sizeof(regs)))
		return 0;
	return regs[3] + regs[19] + r;
}

SEC("socket")
int inline_once_large(struct __sk_buff *skb)
{
	__u64 buf[24];

	if (bpf_skb_load_bytes(skb, 0, buf, sizeof(buf)))
		return 0;
	int r = outer(skb) + buf[23];

	bpf_tail_call(skb, &progs, r & 3);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// big is inlined into outer: two functions, no call to big.
// CHECK: inline_once_large: (section socket,
// CHECK: call outer
// CHECK-NOT: call big
