// Three nested 16-trip loops (compile_time.sh bench/testdata/nested3x16.c).
#define SEC(n) __attribute__((section(n), used))
struct xdp_md { unsigned data, data_end, data_meta, ingress_ifindex, rx_queue_index, egress_ifindex; };
SEC("xdp")
int nested(struct xdp_md *ctx)
{
	unsigned s = ctx->rx_queue_index, t = ctx->ingress_ifindex;

	for (int i = 0; i < 16; i++)
		for (int j = 0; j < 16; j++)
			for (int k = 0; k < 16; k++) {
				s += (i * j) ^ k ^ t;
				t = s >> 1;
			}
	return s & 3;
}

char LICENSE[] SEC("license") = "GPL";
