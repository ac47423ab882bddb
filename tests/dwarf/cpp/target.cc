// C++ target of the DWARF tests: methods, namespaces, overloads, base
// classes, references and namespaced globals.
#include <cstdio>
#include <cstdlib>

namespace geo {
long g_calls = 7;

struct Base {
	int id;
	long weight;
};

class Counter : public Base {
public:
	long total;
	int hits;
	Counter(int i) : total(0), hits(0) { id = i; weight = 10 * i; }
	__attribute__((noinline)) long add(long v);
	__attribute__((noinline)) long add(int a, int b);
};

long Counter::add(long v)
{
	total += v * weight; /* @add_long */
	hits++;
	g_calls++;
	return total;
}

long Counter::add(int a, int b)
{
	total += a - b; /* @add_int */
	hits++;
	return total;
}

__attribute__((noinline)) long scale(const Counter &c, long f)
{
	long r = c.total * f; /* @scale_line */
	g_calls += r & 1;
	return r;
}
} // namespace geo

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 2;
	geo::Counter c(3);
	long t = 0;
	for (int i = 0; i < n; i++) {
		t += c.add((long)i);
		t += c.add(i, 1);
		t += geo::scale(c, i + 2);
	}
	printf("%ld\n", t);
	return 0;
}
