// Tests: a cleanup attribute naming a kernel function: an open-coded
// numbers iterator (bpf_iter_num_*) destroyed by its cleanup when the loop
// ends or breaks, as libbpf's bpf_for does, with its empty attribute entry.
// RUN: socket
// EXPECT: retval=0
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct bpf_iter_num {
	__u64 __opaque[1];
} __attribute__((aligned(8)));

extern int bpf_iter_num_new(struct bpf_iter_num *it, int start, int end) __weak __ksym;
extern int *bpf_iter_num_next(struct bpf_iter_num *it) __weak __ksym;
extern void bpf_iter_num_destroy(struct bpf_iter_num *it) __weak __ksym;

#define for_each_num(i, start, end) for (					\
	struct bpf_iter_num ___it __attribute__((aligned(8), /* empty: */,	\
						 cleanup(bpf_iter_num_destroy))),	\
	*___p __attribute__((unused)) = (					\
		bpf_iter_num_new(&___it, (start), (end)),			\
		(void)bpf_iter_num_destroy, (void *)0);				\
	({ int *___t = bpf_iter_num_next(&___it);				\
	   (___t && ((i) = *___t, 1)); });					\
	)

SEC("socket")
int cleanup_iter_kfunc(struct __sk_buff *skb)
{
	int i, sum = 0, first = -1;

	for_each_num(i, 0, 10)
		sum += i;
	if (sum != 45)
		return 1;
	for_each_num(i, 3, 100) {
		first = i;
		break;
	}
	if (first != 3)
		return 2;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: call bpf_iter_num_new
// CHECK: call bpf_iter_num_next
// CHECK: call bpf_iter_num_destroy
// CHECK: call bpf_iter_num_new
// CHECK: call bpf_iter_num_next
// CHECK: call bpf_iter_num_destroy
