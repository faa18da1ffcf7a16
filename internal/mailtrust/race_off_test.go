//go:build !race

package mailtrust

const raceEnabled = false
