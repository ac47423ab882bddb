package runtime

import (
	"errors"
	"os"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

func TestInterfaceIndexMatchesSysfs(t *testing.T) {
	want, err := os.ReadFile("/sys/class/net/lo/ifindex")
	if err != nil {
		t.Skipf("no /sys/class/net/lo: %v", err)
	}
	got, err := interfaceIndex("lo")
	if err != nil {
		t.Fatal(err)
	}
	if strconv.Itoa(got) != strings.TrimSpace(string(want)) {
		t.Errorf("interfaceIndex(lo) = %d, sysfs says %s", got, want)
	}
	if _, err := interfaceIndex("bpfcc-none0"); !errors.Is(err, unix.ENODEV) {
		t.Errorf("interfaceIndex of a missing interface: %v, want ENODEV", err)
	}
}
