// A program the verifier rejects: the map lookup's result is used without a
// NULL check (line 20). reject.bpf.o is built from it with
//   clang-19 -target bpf -O2 -g -c reject.bpf.c -o reject.bpf.o
// and checked in, so the tests need no clang.
typedef unsigned int __u32;
typedef unsigned long long __u64;

struct {
	int (*type)[1];          /* BPF_MAP_TYPE_HASH */
	int (*max_entries)[16];
	__u32 *key;
	__u64 *value;
} calls __attribute__((section(".maps"), used));

static void *(*bpf_map_lookup_elem)(void *map, const void *key) = (void *)1;

__attribute__((section("uprobe"), used)) int bad(void *ctx) {
	__u32 key = 0;
	__u64 *v = bpf_map_lookup_elem(&calls, &key);
	return *v;
}

char _license[] __attribute__((section("license"), used)) = "GPL";
