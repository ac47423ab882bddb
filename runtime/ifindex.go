package runtime

import "golang.org/x/sys/unix"

// interfaceIndex is if_nametoindex(3): the SIOCGIFINDEX ioctl on a datagram
// socket. It stands in for net.InterfaceByName because importing net links
// cgo's resolver, which makes bpfcc a dynamically linked binary and costs
// every compile ld.so and libc start-up (about 3 ms of a 15 ms --version).
func interfaceIndex(name string) (int, error) {
	ifr, err := unix.NewIfreq(name)
	if err != nil {
		return 0, err
	}
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return 0, err
	}
	defer unix.Close(fd)
	if err := unix.IoctlIfreq(fd, unix.SIOCGIFINDEX, ifr); err != nil {
		return 0, err
	}
	return int(ifr.Uint32()), nil
}
