package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"
)

// Config is pbem's configuration: a TOML file (see pbem.example.toml),
// then environment variables PBEM_<SECTION>_<KEY> over it, then flags.
type Config struct {
	DataDir string    `toml:"data_dir"`
	Log     LogConfig `toml:"log"`
	NATS    NATSConf  `toml:"nats"`
	Engine  EngineCfg `toml:"engine"`
}

// LogConfig selects the log format and level.
type LogConfig struct {
	Format string `toml:"format"` // text or json
	Level  string `toml:"level"`  // debug, info, warn, error
}

// NATSConf selects embedded or external NATS.
type NATSConf struct {
	URLs   []string `toml:"urls"`   // external server or cluster; empty: embedded
	Listen string   `toml:"listen"` // embedded server's client address; empty: in-process only
}

// EngineCfg tunes the engine.
type EngineCfg struct {
	SnapshotEvery uint64 `toml:"snapshot_every"`
}

func defaultConfig() Config {
	return Config{DataDir: "pbem-data", Log: LogConfig{Format: "text", Level: "info"}, Engine: EngineCfg{SnapshotEvery: 256}}
}

// loadConfig reads path (if not empty) over the defaults, then applies the
// environment.
func loadConfig(path string, env func(string) string) (Config, error) {
	c := defaultConfig()
	if path != "" {
		md, err := toml.DecodeFile(path, &c)
		if err != nil {
			return c, fmt.Errorf("config %s: %w", path, err)
		}
		if und := md.Undecoded(); len(und) > 0 {
			return c, fmt.Errorf("config %s: unknown keys %v", path, und)
		}
	}
	set := func(name string, dst *string) {
		if v := env(name); v != "" {
			*dst = v
		}
	}
	set("PBEM_DATA_DIR", &c.DataDir)
	set("PBEM_LOG_FORMAT", &c.Log.Format)
	set("PBEM_LOG_LEVEL", &c.Log.Level)
	set("PBEM_NATS_LISTEN", &c.NATS.Listen)
	if v := env("PBEM_NATS_URLS"); v != "" {
		c.NATS.URLs = nil
		for _, u := range strings.Split(v, ",") {
			if u = strings.TrimSpace(u); u != "" {
				c.NATS.URLs = append(c.NATS.URLs, u)
			}
		}
	}
	if v := env("PBEM_ENGINE_SNAPSHOT_EVERY"); v != "" {
		n, err := strconv.ParseUint(v, 10, 64)
		if err != nil || n == 0 {
			return c, fmt.Errorf("PBEM_ENGINE_SNAPSHOT_EVERY=%q: want a positive number", v)
		}
		c.Engine.SnapshotEvery = n
	}
	return c, nil
}

func getenv(k string) string { return os.Getenv(k) }
