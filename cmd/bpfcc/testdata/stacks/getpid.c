/* The target of TestLoadKernelStack: one getpid system call. */
#include <unistd.h>
#include <sys/syscall.h>

int main(void)
{
	syscall(SYS_getpid);
	return 0;
}
