// Target for the runtime's end-to-end tests, built with gcc into a temp dir.
//   target N        calls work(0) .. work(N-1), then exits
//   target -1       calls work(1) every millisecond until killed
//   target N CODE   as target N, then exits with status CODE
#include <stdlib.h>
#include <unistd.h>

__attribute__((noinline)) int work(int n) {
	__asm__ volatile("" ::: "memory");
	return n * 2;
}

int main(int argc, char **argv) {
	int n = argc > 1 ? atoi(argv[1]) : 0;
	int sum = 0;
	if (n < 0) {
		for (;;) {
			sum += work(1);
			usleep(1000);
		}
	}
	for (int i = 0; i < n; i++)
		sum += work(i);
	return argc > 2 ? atoi(argv[2]) : (sum == -1);
}
