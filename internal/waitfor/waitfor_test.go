package waitfor

import (
	"sync/atomic"
	"testing"
	"time"
)

func TestTrue(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		holdsAt int // the look at which cond first holds; 0: never
		within  time.Duration
		want    bool
	}{
		{"holds at once", 1, time.Second, true},
		{"holds after a few looks", 5, time.Second, true},
		{"never holds", 0, 50 * time.Millisecond, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var looks atomic.Int32
			start := time.Now()
			got := True(tc.within, func() bool { return int(looks.Add(1)) == tc.holdsAt })
			if got != tc.want {
				t.Fatalf("True = %v after %d looks, want %v", got, looks.Load(), tc.want)
			}
			if !tc.want && time.Since(start) < tc.within {
				t.Fatalf("gave up after %v, before %v", time.Since(start), tc.within)
			}
		})
	}
}

func TestTrueLooksOnceMoreWhenTheTimeIsUp(t *testing.T) {
	t.Parallel()
	const within = 10 * time.Millisecond
	start := time.Now()
	if !True(within, func() bool { return time.Since(start) >= within }) {
		t.Fatal("a condition that holds when the time is up was not seen")
	}
}

func TestTrueSeesAConditionAnotherGoroutineMakesTrueSoon(t *testing.T) {
	t.Parallel()
	var done atomic.Bool
	time.AfterFunc(20*time.Millisecond, func() { done.Store(true) })
	start := time.Now()
	if !True(10*time.Second, done.Load) {
		t.Fatal("the condition never held")
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("seen %v after it held at 20ms", d)
	}
}
