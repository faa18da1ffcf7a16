package bench

import (
	"syscall"
	"unsafe"
)

// cpuTime is the CPU time the process has used, every thread's, in ns,
// from the scheduler's own count (getrusage's moves in clock ticks, too
// coarse for a pass of a few milliseconds).
func cpuTime() int64 {
	const clockProcessCPUTime = 2 // CLOCK_PROCESS_CPUTIME_ID
	var ts syscall.Timespec
	if _, _, errno := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockProcessCPUTime, uintptr(unsafe.Pointer(&ts)), 0); errno != 0 {
		return 0
	}
	return ts.Nano()
}
