package main

import (
	"pbem/mail/compose"
	"pbem/server"
	"pbem/store"
)

// access is what a command may do with the data directory's store.
type access = server.Access

const (
	readStore  = server.ReadStore
	writeStore = server.WriteStore
	startStore = server.StartStore
)

// mailhostFile is the built-in mail host's file in the data directory.
const mailhostFile = server.MailhostFile

// openStore opens the data directory's store for acc (see server.OpenStore).
func (a *app) openStore(acc access) (*store.Store, error) {
	return server.OpenStore(a.cfg.DataDir, acc, a.cfg.Mail.QuarantineMB, a.lg)
}

// open returns the event log for the running command, opening the store
// on first use with the command's access.
func (a *app) open() (logStore, error) {
	if a.log != nil {
		return a.log, nil
	}
	st, err := a.openStore(a.access)
	if err != nil {
		return nil, err
	}
	a.log, a.closeFn = st, st.Close
	return st, nil
}

// composer builds the mail composer from the configuration and the
// store's reply-token secret, once (see server.NewComposer).
func (a *app) composer() (*compose.Composer, error) {
	if a.comp != nil {
		return a.comp, nil
	}
	log, err := a.open()
	if err != nil {
		return nil, err
	}
	comp, secret, err := server.NewComposer(a.cfg.Mail, a.cfg.Web, log, a.reg)
	if err != nil {
		return nil, err
	}
	a.comp, a.secret = comp, secret
	return comp, nil
}
