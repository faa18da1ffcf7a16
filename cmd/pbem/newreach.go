package main

import (
	"context"
	"fmt"
	"net"

	"pbem/engine/play"
	"pbem/events"
	"pbem/server"
)

// checkReach refuses a new game some of whose people the configured mail
// host cannot deliver to, and warns of addresses it could not check (see
// server.CheckReach).
func checkReach(a *app, ng play.NewGame) error {
	people := append(append([]events.Player(nil), ng.Players...), ng.Referees...)
	warnings, err := server.CheckReach(context.Background(), a.cfg.Mail, people, net.DefaultResolver)
	if err != nil {
		return fmt.Errorf("the game was not made:\n%w", err)
	}
	for _, w := range warnings {
		fmt.Fprintln(a.errOut, "pbem new: warning:", w)
	}
	return nil
}
