/* ctypes.c: types for the C declarations bpfcc prints from DWARF
 * (cdecl_test.go): every member's offset must survive the round trip. */
#include <stddef.h>
#include <stdint.h>

typedef unsigned char lu_byte;
typedef struct Node Node;
struct State;
typedef int (*cfunc)(struct State *, int);

enum Color { RED, GREEN = 5, BLUE = -1 };

struct Global {
	size_t total;
	double ratio;
	struct State *mainthread;
	long double ld;
	char name[12];
	Node *nodes[4];
};

struct Node {
	Node *next;
	union {
		long i;
		double d;
		void *p;
	} v;
	lu_byte tt;
	unsigned flags : 3;
	unsigned mark : 5;
	signed small : 4;
	uint64_t big : 40;
	enum Color color;
};

struct __attribute__((packed)) Packed {
	char c;
	int i;
	short s;
};

struct Aligned {
	char c;
	long x __attribute__((aligned(32)));
};

struct State {
	lu_byte status;
	struct Global *l_G;
	struct { int line; const char *source; } where;
	cfunc hook;
	struct Packed pk[2];
	struct Aligned al;
	__int128 wide;
	int matrix[2][3];
	int (*rows)[3];
	struct Opaque *opaque;
	char tail[];
};

struct State st;
struct Global gl;
Node nodes[2];
struct Opaque *op;

int use(struct State *L)
{
	return L->status + (int)L->l_G->total;
}

int main(void)
{
	st.l_G = &gl;
	return use(&st);
}
