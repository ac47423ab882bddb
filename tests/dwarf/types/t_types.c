/*
 * t_types.c: a traced program whose structs a handler reads without
 * declaring them: <bpfcc/target.h> declares them from this binary's DWARF
 * (tests/dwarf_types_test.go compares what the handler reads with gdb).
 * Bit-fields, a packed struct, a union, an anonymous struct, float and
 * long double members (printed as integers and bytes) and __int128 test
 * that the printed declarations keep every offset.
 */
#include <stdlib.h>
#include <string.h>

typedef unsigned char lu_byte;
struct State;
typedef struct State State;

enum Mode { M_IDLE, M_RUN = 7, M_DONE = -2 };

struct CallInfo {
	struct CallInfo *previous;
	long func;
	unsigned short nresults;
	unsigned callstatus : 3;
	unsigned hooked : 1;
	int delta : 7;
	unsigned long long extra : 37;
	enum Mode mode;
};

struct Global {
	unsigned long total;
	double ratio;
	State *mainthread;
	long double ld;
	char name[12];
	union {
		long i;
		double d;
		void *p;
	} u;
	struct {
		int line;
		const char *source;
	} where;
	short counts[3];
	int (*hook)(State *, int);
};

struct __attribute__((packed)) Packed {
	char c;
	int i;
	short s;
};

struct State {
	lu_byte status;
	struct Global *l_G;
	struct CallInfo *ci;
	struct CallInfo base_ci;
	struct Packed pk;
	__int128 wide;
	long top;
	const char *label;
};

static struct Global g;
static char labels[8][24];

__attribute__((noinline)) long step(State *L, int n)
{
	L->top += n;
	return L->top;
}

int main(int argc, char **argv)
{
	int k = argc > 1 ? atoi(argv[1]) : 3;
	State *L = calloc(1, sizeof *L), *L2 = calloc(1, sizeof *L2);
	g.mainthread = L;
	strcpy(g.name, "global");
	L->l_G = L2->l_G = &g;
	L->ci = &L->base_ci;
	L2->ci = &L2->base_ci;
	L2->base_ci.previous = &L->base_ci;
	for (int i = 0; i < 2 * k && i < 8; i++) {
		State *s = i % 2 ? L2 : L;
		s->status = (lu_byte)(i * 37);
		g.total += 1000 + i;
		g.ratio = i / 4.0;
		g.u.i = -i * 3;
		g.where.line = 100 + i;
		g.counts[i % 3] = (short)(-i * 5);
		s->ci->func = 0x1000 * i + 7;
		s->ci->nresults = (unsigned short)(65530 + i);
		s->ci->callstatus = i & 7;
		s->ci->hooked = i & 1;
		s->ci->delta = -i * 9;
		s->ci->extra = (1ull << 36) + i;
		s->ci->mode = i % 3 == 0 ? M_IDLE : i % 3 == 1 ? M_RUN : M_DONE;
		s->pk.c = 'a' + i;
		s->pk.i = -70000 * i;
		s->pk.s = (short)(300 * i);
		s->wide = ((__int128)i << 64) | 5;
		strcpy(labels[i], "label-of-step-");
		labels[i][14] = 'a' + i;
		s->label = labels[i];
		step(s, i);
	}
	return 0;
}
