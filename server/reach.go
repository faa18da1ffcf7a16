package server

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"time"

	"pbem/events"
)

// Resolver is what CheckReach asks DNS (net.DefaultResolver).
type Resolver interface {
	LookupMX(ctx context.Context, name string) ([]*net.MX, error)
	LookupHost(ctx context.Context, host string) ([]string, error)
}

// specialUse are the domains (RFC 2606, RFC 6761) that are never in the
// public DNS yet may be served by a mail host of one's own (a test setup,
// a LAN): their addresses are checked for syntax only.
var specialUse = []string{"test", "localhost", "example", "invalid", "local", "internal", "home.arpa", "lan",
	"example.org", "example.com", "example.net"}

func isSpecialUse(domain string) bool {
	for _, s := range specialUse {
		if domain == s || strings.HasSuffix(domain, "."+s) {
			return true
		}
	}
	return false
}

// CheckReach checks that the mail host mc configures can deliver to every
// address of people (a new game's players and referees) before the game
// is made, so that no welcome mail is lost for good unseen.
//
// pbem's built-in host delivers only to mailboxes at its own domain: any
// other address is refused, with what to do instead. A configured host
// delivers anywhere, so each address's domain is looked up: one DNS says
// does not exist is refused, if DNS is trustworthy (it knows the name of
// the configured SMTP server); otherwise, or if DNS cannot be asked (no
// network, a timeout), it yields a warning, and the game is made. Domains
// of special use (.test, .localhost, example.org, ...) are not looked up.
func CheckReach(ctx context.Context, mc MailConfig, people []events.Player, dns Resolver) (warnings []string, err error) {
	var errs []error
	domains := map[string][]string{}
	var order []string
	for _, p := range people {
		for _, addr := range p.Addresses {
			at := strings.LastIndexByte(addr, '@')
			if at <= 0 || at == len(addr)-1 {
				errs = append(errs, fmt.Errorf("%s's address %q is not a mail address (want name@domain)", p.ID, addr))
				continue
			}
			domain := strings.ToLower(strings.TrimSuffix(addr[at+1:], "."))
			if mc.BuiltinHost() {
				if domain != strings.ToLower(mc.Domain) {
					errs = append(errs, fmt.Errorf("%s's address %s cannot get mail: pbem runs its own mail host (no [mail] host is configured), which delivers only to addresses @%s; give %s an address there (%s@%s: it is made with the game, and its password comes in the welcome mail and from 'pbem mailboxes'), or configure mail.imap and mail.smtp for a real mail host (see README, 'The game mailbox at a provider')",
						p.ID, addr, mc.Domain, p.ID, strings.ToLower(p.ID), mc.Domain))
				}
				continue
			}
			if _, seen := domains[domain]; !seen {
				order = append(order, domain)
			}
			domains[domain] = append(domains[domain], addr)
		}
	}
	if len(errs) > 0 || mc.BuiltinHost() {
		return nil, errors.Join(errs...)
	}
	trusted := dnsTrusted(ctx, mc, dns)
	for _, d := range order {
		if isSpecialUse(d) {
			continue
		}
		w, err := lookupDomain(ctx, dns, d)
		if err != nil && !trusted {
			w, err = err.Error()+" (but DNS here does not know the SMTP server's name either, so it may be wrong: if the address is right, go ahead)", nil
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", strings.Join(domains[d], ", "), err))
		}
		if w != "" {
			warnings = append(warnings, fmt.Sprintf("%s: %s", strings.Join(domains[d], ", "), w))
		}
	}
	return warnings, errors.Join(errs...)
}

// dnsTrusted reports whether DNS answers for the world: it resolves the
// configured SMTP server's host name (an IP address proves nothing). A
// resolver that says every name does not exist (no network, a sandbox)
// must not refuse real addresses.
func dnsTrusted(ctx context.Context, mc MailConfig, dns Resolver) bool {
	host, _, err := net.SplitHostPort(mc.SMTP.Addr)
	if err != nil || host == "" || net.ParseIP(host) != nil || isSpecialUse(strings.ToLower(host)) {
		return false
	}
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	_, err = dns.LookupHost(ctx, host)
	return err == nil
}

// lookupDomain asks DNS whether mail can be delivered to domain: an MX
// record, or else an address (RFC 5321's implicit MX). It returns an
// error when DNS says the domain does not exist or takes no mail, and a
// warning when DNS could not be asked.
func lookupDomain(ctx context.Context, dns Resolver, domain string) (warning string, err error) {
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	mxs, mxErr := dns.LookupMX(ctx, domain)
	if mxErr == nil {
		if len(mxs) == 1 && mxs[0].Host == "." {
			return "", fmt.Errorf("the domain %s takes no mail (its MX record is the null MX of RFC 7505): check the address", domain)
		}
		if len(mxs) > 0 {
			return "", nil
		}
	}
	_, hostErr := dns.LookupHost(ctx, domain)
	switch {
	case hostErr == nil:
		return "", nil
	case notFound(hostErr) && (mxErr == nil || notFound(mxErr)):
		return "", fmt.Errorf("the domain %s does not exist in DNS (no MX and no address record), so mail to it would bounce: check the spelling", domain)
	}
	if mxErr == nil || notFound(mxErr) {
		mxErr = hostErr
	}
	return fmt.Sprintf("could not check the domain %s in DNS (%v): if it is misspelt, the welcome mail will fail for good ('pbem games' then says so)", domain, mxErr), nil
}

func notFound(err error) bool {
	var de *net.DNSError
	return errors.As(err, &de) && de.IsNotFound
}
