package main

import "pbem/demo/servetest"

// tail is the last n lines of s.
func tail(s string, n int) string { return servetest.Tail(s, n) }
