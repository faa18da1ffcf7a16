package bench

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"runtime/trace"
)

// profiled runs fn, the measurement named part, and with dir set writes
// its CPU profile to dir/part.cpu.pprof, the heap as fn left it to
// dir/part.heap.pprof and an execution trace to dir/part.trace ('pbem
// bench --profile DIR'). The trace shows where a part waits rather than
// works: 'go tool trace -pprof=sync part.trace' (or net, syscall, sched)
// gives the time goroutines spent blocked there, by stack. With dir
// empty it only runs fn. A CPU profile already running (--cpuprofile)
// leaves the part without one.
func profiled(dir, part string, fn func() error) error {
	if dir == "" {
		return fn()
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("profile directory: %w", err)
	}
	f, err := os.Create(filepath.Join(dir, part+".cpu.pprof"))
	if err != nil {
		return fmt.Errorf("cpu profile: %w", err)
	}
	defer f.Close()
	tf, err := os.Create(filepath.Join(dir, part+".trace"))
	if err != nil {
		return fmt.Errorf("execution trace: %w", err)
	}
	defer tf.Close()
	cpu := pprof.StartCPUProfile(f) == nil
	traced := trace.Start(tf) == nil
	err = fn()
	if traced {
		trace.Stop()
	}
	if cpu {
		pprof.StopCPUProfile()
	}
	return errors.Join(err, writeHeapProfile(dir, part))
}

// writeHeapProfile writes the live heap, after a collection, to
// dir/part.heap.pprof; with dir empty it does nothing.
func writeHeapProfile(dir, part string) error {
	if dir == "" {
		return nil
	}
	f, err := os.Create(filepath.Join(dir, part+".heap.pprof"))
	if err != nil {
		return fmt.Errorf("heap profile: %w", err)
	}
	runtime.GC()
	return errors.Join(pprof.WriteHeapProfile(f), f.Close())
}
