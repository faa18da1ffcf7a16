package cluster

import (
	"fmt"
	"strings"

	"github.com/nats-io/nats.go"
)

// unreachable names NATS and its URLs in err when nc is not connected:
// a node that cannot reach NATS says so, not only that a request timed
// out.
func unreachable(nc *nats.Conn, err error) error {
	if st := nc.Status(); st != nats.CONNECTED {
		return fmt.Errorf("no connection to NATS at %s (%s): %w", strings.Join(nc.Servers(), ","), strings.ToLower(st.String()), err)
	}
	return err
}
