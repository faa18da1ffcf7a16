package hra

import "pbem/engine/names"

// The name-matching helpers are shared by every rule system
// (engine/names), so a name is read the same way in every game.
func normName(s string) string     { return names.Norm(s) }
func editDistance(a, b string) int { return names.Distance(a, b) }
