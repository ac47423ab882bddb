// Tests: a call through a function pointer kept in a local struct whose
// address an always-inline function is given (opentelemetry-go-
// instrumentation's start_span(&params) calls
// params->get_parent_span_context_fn) is made direct once propagation
// forwards the stored address to the load, as clang's SROA folds it, and
// inlined; the test of the pointer against NULL is decided (a function's
// address is not 0); a NULL pointer tested before the call leaves the
// call in a dead branch.
// bpfcc refused both before optimisation ran: "indirect calls through
// function pointers are not supported".
// RUN: socket prog=fnptr_known
// EXPECT: retval=4
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

typedef long (*get_fn)(void *handle, __u64 *out);

typedef struct params {
	void *ctx;
	__u64 *out;
	get_fn fn;
	void *arg;
} params_t;

static __always_inline long from_arg(void *handle, __u64 *out)
{
	*out = (__u64)(long)handle;
	return 0;
}

static __always_inline void start(params_t *p)
{
	long found = -1;

	if (p->fn != 0)
		found = p->fn(p->arg, p->out);
	else
		*p->out = 100;
	if (found == 0)
		*p->out += 1;
}

SEC("socket")
int fnptr_known(struct __sk_buff *skb)
{
	__u64 v = 0;
	params_t p = { .ctx = skb, .out = &v, .fn = from_arg };

	p.arg = (void *)(long)3;
	start(&p);
	return v;
}

SEC("socket")
int fnptr_null(struct __sk_buff *skb)
{
	__u64 v = 0;
	params_t p = { .ctx = skb, .out = &v, .fn = 0, .arg = 0 };

	start(&p);
	return v;
}

char LICENSE[] SEC("license") = "GPL";

// The call is inlined and the pointer's NULL test folded, as clang's; the
// callee, no longer referenced, is not emitted.
// CHECK-NOT: from_arg: (section
// CHECK: fnptr_known: (section socket,
// CHECK: r0 = 4
// CHECK-NEXT: exit
// CHECK: fnptr_null: (section socket,
// CHECK-NEXT: r0 = 100
// CHECK-NEXT: exit
