// Tests: at -mcpu=v1, which has no jlt/jle, a register compare whose
// taken side is the next block is inverted by swapping its registers
// (`a < b` is `b > a`), as clang does, not by a jump over a jump: that
// costs an instruction and turns the order the verifier walks the two ways
// (falco's 16-step groups_search binary search: 978,401 verified
// instructions instead of 4,075). A 54-byte packet is 40 bytes past its
// Ethernet header, as a socket filter sees it: 40 is gids[5], found at
// step 3.
// RUN: socket
// CPU: v1
// PACKET: zeros len=54
// EXPECT: retval=8
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

const volatile unsigned int gids[16] = {1, 3, 7, 10, 20, 40, 41, 50, 60, 70, 80, 90, 100, 110, 120, 130};

SEC("socket")
int v1_swapped_compare(struct __sk_buff *skb)
{
	unsigned int grp = skb->len;
	unsigned int left = 0, right = 16, mid;

	for (int j = 0; j < 16; j++) {
		if (left >= right)
			break;
		mid = (left + right) / 2;
		unsigned int v = gids[mid & 15];
		if (grp > v)
			left = mid + 1;
		else if (grp < v)
			right = mid;
		else
			return mid + 3;
	}
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK-NOT: goto +1 <{{[0-9]+}}>
