package logx

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"strings"
	"testing"
)

func TestAdaptersWriteStructuredRecords(t *testing.T) {
	var buf bytes.Buffer
	l, err := New(&buf, "json", "debug")
	if err != nil {
		t.Fatal(err)
	}
	NATS{l}.Warnf("slow consumer %s", "c1")
	Printf{L: l, Level: slog.LevelInfo}.Printf("imap: %d\n", 7)
	w := Writer(l, slog.LevelDebug, "smtp")
	w.Write([]byte("EHLO x\r\nMAIL FR"))
	w.Write([]byte("OM:<a@b>\n"))
	var got []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("not JSON: %q", line)
		}
		got = append(got, m)
	}
	want := []struct{ level, msg, line string }{
		{"WARN", "slow consumer c1", ""}, {"INFO", "imap: 7", ""}, {"DEBUG", "smtp", "EHLO x"}, {"DEBUG", "smtp", "MAIL FROM:<a@b>"},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d records: %s", len(got), buf.String())
	}
	for i, w := range want {
		if got[i]["level"] != w.level || got[i]["msg"] != w.msg || (w.line != "" && got[i]["line"] != w.line) {
			t.Errorf("record %d: %v, want %+v", i, got[i], w)
		}
	}
	if _, err := New(&buf, "xml", "info"); err == nil {
		t.Fatal("accepted format xml")
	}
}
