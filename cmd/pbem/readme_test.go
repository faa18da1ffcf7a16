package main

import (
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"pbem/engine/play"
	"strings"
	"testing"
)

// The README tells players how to recompute every die in a few lines of
// Python; this runs those very lines and compares them with the engine.
func TestREADMEDiceProcedureMatchesTheEngine(t *testing.T) {
	t.Parallel()
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(readme), "```python\n")
	code, _, ok2 := strings.Cut(rest, "```")
	if !ok || !ok2 {
		t.Fatal("README has no python block")
	}
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Fatalf("python3 is needed to check the README's procedure: %v", err)
	}
	seed := []byte("the seed revealed at the end....")
	var want []string
	for i := 0; i < 300; i++ {
		sides := []int{6, 10, 3, 20, 100}[i%5]
		want = append(want, fmt.Sprint(play.RollValue(seed, "mill-creek", uint64(i), sides)))
	}
	script := code + fmt.Sprintf(`
seed = bytes.fromhex(%q)
print(" ".join(str(roll(seed, "mill-creek", i, [6, 10, 3, 20, 100][i %% 5])) for i in range(300)))
`, hex.EncodeToString(seed))
	out, err := exec.Command(py, "-c", script).CombinedOutput()
	if err != nil {
		t.Fatalf("python: %v\n%s", err, out)
	}
	if got := strings.TrimSpace(string(out)); got != strings.Join(want, " ") {
		t.Fatalf("README procedure disagrees with the engine:\npython %s\nengine %s", got, strings.Join(want, " "))
	}
}
