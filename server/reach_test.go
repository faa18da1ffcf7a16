package server

import (
	"context"
	"net"
	"strings"
	"testing"

	"pbem/events"
)

// zone is a resolver over a fixed table of names: what DNS answers is the
// input of these cases (the lookups themselves are the net package's).
type zone struct {
	mx    map[string][]*net.MX
	hosts map[string]bool
	down  bool // every query times out
}

func (z zone) LookupMX(_ context.Context, name string) ([]*net.MX, error) {
	if z.down {
		return nil, &net.DNSError{Err: "i/o timeout", Name: name, IsTimeout: true, IsTemporary: true}
	}
	if mx, ok := z.mx[name]; ok {
		return mx, nil
	}
	return nil, &net.DNSError{Err: "no such host", Name: name, IsNotFound: true}
}

func (z zone) LookupHost(_ context.Context, name string) ([]string, error) {
	if z.down {
		return nil, &net.DNSError{Err: "i/o timeout", Name: name, IsTimeout: true, IsTemporary: true}
	}
	if z.hosts[name] {
		return []string{"192.0.2.1"}, nil
	}
	return nil, &net.DNSError{Err: "no such host", Name: name, IsNotFound: true}
}

func TestCheckReachRefusesWhatTheMailHostCannotDeliverTo(t *testing.T) {
	world := zone{mx: map[string][]*net.MX{"club.org": {{Host: "mx.club.org.", Pref: 10}}, "nomail.org": {{Host: ".", Pref: 0}}},
		hosts: map[string]bool{"smtp.club.org": true, "plain.org": true}}
	builtin := MailConfig{Domain: "pbem.localhost"}
	external := MailConfig{Domain: "club.org"}
	external.IMAP.Addr, external.SMTP.Addr = "imap.club.org:993", "smtp.club.org:465"
	byIP := external
	byIP.SMTP.Addr = "192.0.2.7:587"
	tests := []struct {
		name          string
		mc            MailConfig
		dns           zone
		addrs         []string
		wantErr, warn string
	}{
		{"built-in host, its own domain", builtin, world, []string{"anna@pbem.localhost", "Taro@PBEM.localhost"}, "", ""},
		{"built-in host, another domain", builtin, world, []string{"anna@pbem.localhost", "taro@example.jp"}, "taro's address taro@example.jp cannot get mail: pbem runs its own mail host", ""},
		{"external host, an MX", external, world, []string{"anna@club.org"}, "", ""},
		{"external host, an address record only", external, world, []string{"anna@plain.org"}, "", ""},
		{"external host, a special-use domain", external, world, []string{"anna@players.test", "taro@example.org"}, "", ""},
		{"external host, no such domain", external, world, []string{"anna@clbu.org"}, "the domain clbu.org does not exist in DNS", ""},
		{"external host, a null MX", external, world, []string{"anna@nomail.org"}, "takes no mail", ""},
		{"external host, DNS down", external, zone{down: true}, []string{"anna@club.org"}, "", "could not check the domain club.org"},
		{"external host by IP, DNS says no to all", byIP, zone{}, []string{"anna@club.org"}, "", "DNS here does not know the SMTP server's name"},
		{"not an address", external, world, []string{"anna"}, "not a mail address", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			people := []events.Player{{ID: "anna", Addresses: tt.addrs[:1]}}
			if len(tt.addrs) > 1 {
				people = append(people, events.Player{ID: "taro", Addresses: tt.addrs[1:]})
			}
			warnings, err := CheckReach(context.Background(), tt.mc, people, tt.dns)
			if tt.wantErr == "" && err != nil || tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)) {
				t.Fatalf("error %v, want %q", err, tt.wantErr)
			}
			got := strings.Join(warnings, "\n")
			if tt.warn == "" && got != "" || !strings.Contains(got, tt.warn) {
				t.Fatalf("warnings %q, want %q", got, tt.warn)
			}
		})
	}
}
