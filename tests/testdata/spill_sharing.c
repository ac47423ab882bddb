// Tests: spilled values that are never live at the same time share stack
// slots (this fuzzed program needed 520 bytes of spill slots at -O2, 64 at
// -O0); results are compared with clang by the differential test.
// RUN: socket
// EXPECT: retval=0
// CLANG-CPU: v4
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#pragma clang diagnostic ignored "-Wconstant-conversion"
#pragma clang diagnostic ignored "-Wtautological-compare"
#pragma clang diagnostic ignored "-Wunused-variable"
#pragma clang diagnostic ignored "-Wunused-but-set-variable"
#pragma clang diagnostic ignored "-Wbitfield-constant-conversion"
#pragma clang diagnostic ignored "-Wshift-count-overflow"
#define SDIVM(T,a,b,mn) ({ T _a=(a), _b=(b); (_b==0 || (_a==mn && _b==-1)) ? _a : _a%_b; })
volatile int in0 = (int)255;
volatile int in1 = (int)332109281;
volatile unsigned short in2 = (unsigned short)65535u;
volatile long long in3 = 1722117896437650129LL;
volatile signed char in4 = (signed char)0;
volatile signed char in5 = (signed char)7;
volatile unsigned long long in6 = 0ULL;
volatile short in7 = (short)-21332;
volatile unsigned char in8 = (unsigned char)82u;
unsigned long long r[25];
struct __attribute__((packed)) bfs { short f0 : 6; long long f1 : 32; unsigned short f2 : 15; unsigned short f3 : 8; signed char f4 : 7; long long f5 : 32; };
struct bfs gb;
unsigned long long gsw;
SEC("socket") int spill_sharing(struct __sk_buff *skb)
{
	struct bfs bs = {0};
	unsigned long long sw = 0;
	bs.f5 ^= SDIVM(long long,in3,5970587252630364785LL,(-9223372036854775807LL-1));
	unsigned l0 = ((in7) != (in8));
	r[1] = SDIVM(int,((((long long)(((in3) ? (in2) : (in8))))) ? (in1) : (((__builtin_bswap16(in4)) || (2118224549405444034LL)))),((((((int)((unsigned)((signed char)-128) << ((in8) & 31)))) >= (((long long)(gb.f0))))) == (((long long)((unsigned long long)(bs.f5) - (unsigned long long)(((unsigned short)(in0))))))),(-2147483647-1));
	long long l1 = ((short)(((in0) <= (in4))));
	unsigned char l2 = ((unsigned)((unsigned)3159286844u));
	signed char l3 = ((short)(((int)(__builtin_bswap16((short)-32768)))));
	signed char l4 = ((__builtin_bswap64(((SDIVM(long long,(short)-1,in3,(-9223372036854775807LL-1))) ^ (((in2) > (in7)))))) + (((long long)(((gb.f0) ? ((~(l3))) : (((in0) >> (((short)-21479) & 31))))))));
	unsigned long long l5 = (unsigned short)63537u;
	gb.f3 = (((!(((int)((unsigned)(in4) << ((in8) & 31)))))) < ((((~(in2))) < (((in0) >= (l0))))));
	signed char l6 = l0;
	switch ((int)(gb.f2)) { case -978121690: sw = sw * 3 + 85; break; case 1: sw = sw * 3 + 78; break; case 29055: sw = sw * 3 + 49; break; case 62122: sw = sw * 3 + 44; default: sw ^= 0x55; }
	bs.f5 |= bs.f5;
	r[13] = ((in7) ? (((in4) >> ((in7) & 31))) : ((~(gb.f5))));
	r[14] = ((int)((unsigned)((unsigned char)255u) + (unsigned)(l4)));
	char l8 = ((bs.f5) == (__builtin_bswap16(((char)(l2)))));
	l5 ^= ((!(in5)));
	signed char l9 = ((((gb.f5) >> ((((((l6) == (l6))) ^ (((l5) <= (-7759546185701005158LL))))) & 63))) & ((~(__builtin_bswap64(((in0) & (in2)))))));
	if ((char)(((in0) > ((unsigned)2147483648u)))) l8 %= (char)(((in0) > ((unsigned)2147483648u)));
	r[16] = SDIVM(int,(signed char)15,(((((int)446638307) >= (((l5) < (bs.f5))))) <= (((in1) >= (l1)))),(-2147483647-1));
	int l10 = ((((int)(bs.f5))) ^ (((((((l8) ? (in6) : ((char)-99))) ? (((int)((unsigned)((unsigned char)101u) - (unsigned)(l6)))) : ((-((unsigned)2827059757u))))) >> (((((!(l6))) >= (((char)((char)-58))))) & 31))));
	bs.f0 = gb.f2;
	r[17] = ((in8) >= (((bs.f2) >> ((l6) & 31))));
	r[24] = ((int)(-(unsigned)(((bs.f5) ? (l9) : (l3)))));
	gsw = sw; r[0] ^= bs.f0;
return 0; }
char LICENSE[] SEC("license") = "GPL";


// The frame (spills and locals) stays within 128 bytes:
// CHECK: spill_sharing: (section socket, {{[0-9]+}} insns, stack {{([0-9]|[0-9][0-9]|1[01][0-9]|12[0-8])}})
// CHECK-NOT: r10 - {{(129|1[3-9][0-9]|[2-9][0-9][0-9])}})
