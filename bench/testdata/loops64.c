// 64 sequential small counted loops in one function: unrolling and the
// value analyses after each unroll (compile_time.sh bench/testdata/loops64.c).
#define SEC(n) __attribute__((section(n), used))
struct xdp_md { unsigned data, data_end, data_meta, ingress_ifindex, rx_queue_index, egress_ifindex; };
SEC("xdp")
int loops(struct xdp_md *ctx)
{
	unsigned s = ctx->rx_queue_index, t = ctx->ingress_ifindex;

	for (int i = 0; i < 4; i++) {
		s = s * 31 + t;
		t ^= s >> 1;
	}
	for (int i = 0; i < 5; i++) {
		s = s * 33 + t;
		t ^= s >> 2;
	}
	for (int i = 0; i < 6; i++) {
		s = s * 35 + t;
		t ^= s >> 3;
	}
	for (int i = 0; i < 7; i++) {
		s = s * 37 + t;
		t ^= s >> 4;
	}
	for (int i = 0; i < 8; i++) {
		s = s * 39 + t;
		t ^= s >> 5;
	}
	for (int i = 0; i < 4; i++) {
		s = s * 41 + t;
		t ^= s >> 6;
	}
	for (int i = 0; i < 5; i++) {
		s = s * 43 + t;
		t ^= s >> 7;
	}
	for (int i = 0; i < 6; i++) {
		s = s * 45 + t;
		t ^= s >> 1;
	}
	for (int i = 0; i < 7; i++) {
		s = s * 47 + t;
		t ^= s >> 2;
	}
	for (int i = 0; i < 8; i++) {
		s = s * 49 + t;
		t ^= s >> 3;
	}
	for (int i = 0; i < 4; i++) {
		s = s * 51 + t;
		t ^= s >> 4;
	}
	for (int i = 0; i < 5; i++) {
		s = s * 53 + t;
		t ^= s >> 5;
	}
	for (int i = 0; i < 6; i++) {
		s = s * 55 + t;
		t ^= s >> 6;
	}
	for (int i = 0; i < 7; i++) {
		s = s * 57 + t;
		t ^= s >> 7;
	}
	for (int i = 0; i < 8; i++) {
		s = s * 59 + t;
		t ^= s >> 1;
	}
	for (int i = 0; i < 4; i++) {
		s = s * 61 + t;
		t ^= s >> 2;
	}
	for (int i = 0; i < 5; i++) {
		s = s * 63 + t;
		t ^= s >> 3;
	}
	for (int i = 0; i < 6; i++) {
		s = s * 65 + t;
		t ^= s >> 4;
	}
	for (int i = 0; i < 7; i++) {
		s = s * 67 + t;
		t ^= s >> 5;
	}
	for (int i = 0; i < 8; i++) {
		s = s * 69 + t;
		t ^= s >> 6;
	}
	for (int i = 0; i < 4; i++) {
		s = s * 71 + t;
		t ^= s >> 7;
	}
	for (int i = 0; i < 5; i++) {
		s = s * 73 + t;
		t ^= s >> 1;
	}
	for (int i = 0; i < 6; i++) {
		s = s * 75 + t;
		t ^= s >> 2;
	}
	for (int i = 0; i < 7; i++) {
		s = s * 77 + t;
		t ^= s >> 3;
	}
	for (int i = 0; i < 8; i++) {
		s = s * 79 + t;
		t ^= s >> 4;
	}
	for (int i = 0; i < 4; i++) {
		s = s * 81 + t;
		t ^= s >> 5;
	}
	for (int i = 0; i < 5; i++) {
		s = s * 83 + t;
		t ^= s >> 6;
	}
	for (int i = 0; i < 6; i++) {
		s = s * 85 + t;
		t ^= s >> 7;
	}
	for (int i = 0; i < 7; i++) {
		s = s * 87 + t;
		t ^= s >> 1;
	}
	for (int i = 0; i < 8; i++) {
		s = s * 89 + t;
		t ^= s >> 2;
	}
	for (int i = 0; i < 4; i++) {
		s = s * 91 + t;
		t ^= s >> 3;
	}
	for (int i = 0; i < 5; i++) {
		s = s * 93 + t;
		t ^= s >> 4;
	}
	for (int i = 0; i < 6; i++) {
		s = s * 95 + t;
		t ^= s >> 5;
	}
	for (int i = 0; i < 7; i++) {
		s = s * 97 + t;
		t ^= s >> 6;
	}
	for (int i = 0; i < 8; i++) {
		s = s * 99 + t;
		t ^= s >> 7;
	}
	for (int i = 0; i < 4; i++) {
		s = s * 101 + t;
		t ^= s >> 1;
	}
	for (int i = 0; i < 5; i++) {
		s = s * 103 + t;
		t ^= s >> 2;
	}
	for (int i = 0; i < 6; i++) {
		s = s * 105 + t;
		t ^= s >> 3;
	}
	for (int i = 0; i < 7; i++) {
		s = s * 107 + t;
		t ^= s >> 4;
	}
	for (int i = 0; i < 8; i++) {
		s = s * 109 + t;
		t ^= s >> 5;
	}
	for (int i = 0; i < 4; i++) {
		s = s * 111 + t;
		t ^= s >> 6;
	}
	for (int i = 0; i < 5; i++) {
		s = s * 113 + t;
		t ^= s >> 7;
	}
	for (int i = 0; i < 6; i++) {
		s = s * 115 + t;
		t ^= s >> 1;
	}
	for (int i = 0; i < 7; i++) {
		s = s * 117 + t;
		t ^= s >> 2;
	}
	for (int i = 0; i < 8; i++) {
		s = s * 119 + t;
		t ^= s >> 3;
	}
	for (int i = 0; i < 4; i++) {
		s = s * 121 + t;
		t ^= s >> 4;
	}
	for (int i = 0; i < 5; i++) {
		s = s * 123 + t;
		t ^= s >> 5;
	}
	for (int i = 0; i < 6; i++) {
		s = s * 125 + t;
		t ^= s >> 6;
	}
	for (int i = 0; i < 7; i++) {
		s = s * 127 + t;
		t ^= s >> 7;
	}
	for (int i = 0; i < 8; i++) {
		s = s * 129 + t;
		t ^= s >> 1;
	}
	for (int i = 0; i < 4; i++) {
		s = s * 131 + t;
		t ^= s >> 2;
	}
	for (int i = 0; i < 5; i++) {
		s = s * 133 + t;
		t ^= s >> 3;
	}
	for (int i = 0; i < 6; i++) {
		s = s * 135 + t;
		t ^= s >> 4;
	}
	for (int i = 0; i < 7; i++) {
		s = s * 137 + t;
		t ^= s >> 5;
	}
	for (int i = 0; i < 8; i++) {
		s = s * 139 + t;
		t ^= s >> 6;
	}
	for (int i = 0; i < 4; i++) {
		s = s * 141 + t;
		t ^= s >> 7;
	}
	for (int i = 0; i < 5; i++) {
		s = s * 143 + t;
		t ^= s >> 1;
	}
	for (int i = 0; i < 6; i++) {
		s = s * 145 + t;
		t ^= s >> 2;
	}
	for (int i = 0; i < 7; i++) {
		s = s * 147 + t;
		t ^= s >> 3;
	}
	for (int i = 0; i < 8; i++) {
		s = s * 149 + t;
		t ^= s >> 4;
	}
	for (int i = 0; i < 4; i++) {
		s = s * 151 + t;
		t ^= s >> 5;
	}
	for (int i = 0; i < 5; i++) {
		s = s * 153 + t;
		t ^= s >> 6;
	}
	for (int i = 0; i < 6; i++) {
		s = s * 155 + t;
		t ^= s >> 7;
	}
	for (int i = 0; i < 7; i++) {
		s = s * 157 + t;
		t ^= s >> 1;
	}
	return s & 3;
}

char LICENSE[] SEC("license") = "GPL";
