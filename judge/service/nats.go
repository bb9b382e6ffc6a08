package service

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"

	"github.com/optjudge/optjudge/bytesize"
	"github.com/optjudge/optjudge/judge/service/store"
)

// NATSConfig configures an embedded NATS server with JetStream.
type NATSConfig struct {
	Name string // server name; "" picks one
	Dir  string // JetStream's storage directory (required)
	// Listen is the client address ("127.0.0.1:4222"); "" listens nowhere:
	// only in-process connections reach the server.
	Listen string
	// Token is required from every client when set; it must be set when
	// Listen is not a loopback address.
	Token string
	// TLSCert and TLSKey make the listener TLS-only.
	TLSCert, TLSKey string

	// SyncAlways makes JetStream fsync every write before it acknowledges
	// it; else it fsyncs every SyncInterval (0: NATS's default, 2 min).
	// Either way a killed process loses nothing (the kernel holds the
	// writes); a power cut or a kernel crash may lose the last interval's.
	SyncAlways   bool
	SyncInterval time.Duration

	// MaxStore is JetStream's storage limit, which the streams' limits
	// are reserved from; 0: store.DefaultLimits.Total() and 1 GiB.
	MaxStore bytesize.Size

	// Cluster, when set, joins a JetStream cluster of that name, listening
	// for routes on ClusterListen and dialing Routes.
	Cluster       string
	ClusterListen string
	Routes        []string
}

// StartServer starts an embedded NATS server and waits until it accepts
// connections.
func StartServer(cfg NATSConfig) (*server.Server, error) {
	if cfg.Dir == "" {
		return nil, errors.New("nats: no storage directory")
	}
	if cfg.MaxStore <= 0 {
		cfg.MaxStore = store.DefaultLimits.Total() + bytesize.GiB
	}
	opts := &server.Options{
		ServerName: cfg.Name,
		JetStream:  true,
		StoreDir:   cfg.Dir,
		NoSigs:     true,
		NoLog:      true,
		DontListen: cfg.Listen == "",
		// the streams' limits are reserved from this, whatever the disk
		// has free now: the operator sizes them (--store-size)
		JetStreamMaxStore: int64(cfg.MaxStore),
		SyncAlways:        cfg.SyncAlways,
		SyncInterval:      cfg.SyncInterval,
		// the default 8 MiB request limit is far above what the service
		// sends; the object store chunks large blobs
	}
	if cfg.Listen != "" {
		host, port, err := splitHostPort(cfg.Listen)
		if err != nil {
			return nil, fmt.Errorf("--nats-listen %s: %w", cfg.Listen, err)
		}
		if !isLoopback(host) && cfg.Token == "" {
			return nil, fmt.Errorf("--nats-listen %s: not a loopback address, so it needs credentials (a token): whoever reaches NATS can read every source and forge results", cfg.Listen)
		}
		opts.Host, opts.Port = host, port
	}
	opts.Authorization = cfg.Token
	if cfg.TLSCert != "" || cfg.TLSKey != "" {
		tc, err := server.GenTLSConfig(&server.TLSConfigOpts{CertFile: cfg.TLSCert, KeyFile: cfg.TLSKey})
		if err != nil {
			return nil, fmt.Errorf("nats tls: %w", err)
		}
		opts.TLSConfig, opts.TLS = tc, true
	}
	if cfg.Cluster != "" {
		if err := clusterOptions(opts, cfg); err != nil {
			return nil, err
		}
	}
	ns, err := server.NewServer(opts)
	if err != nil {
		return nil, fmt.Errorf("starting nats: %w", err)
	}
	ns.Start()
	if !ns.ReadyForConnections(30 * time.Second) {
		ns.Shutdown()
		return nil, errors.New("starting nats: not ready after 30s")
	}
	return ns, nil
}

func clusterOptions(opts *server.Options, cfg NATSConfig) error {
	host, port, err := splitHostPort(cfg.ClusterListen)
	if err != nil {
		return fmt.Errorf("cluster address %s: %w", cfg.ClusterListen, err)
	}
	opts.Cluster = server.ClusterOpts{Name: cfg.Cluster, Host: host, Port: port}
	for _, r := range cfg.Routes {
		u, err := url.Parse(r)
		if err != nil {
			return fmt.Errorf("route %s: %w", r, err)
		}
		opts.Routes = append(opts.Routes, u)
	}
	if opts.ServerName == "" {
		return errors.New("a cluster node needs a name")
	}
	return nil
}

func splitHostPort(addr string) (string, int, error) {
	host, p, err := net.SplitHostPort(addr)
	if err != nil {
		return "", 0, err
	}
	port, err := net.LookupPort("tcp", p)
	if err != nil {
		return "", 0, err
	}
	if port == 0 {
		port = server.RANDOM_PORT
	}
	return host, port, nil
}

// isLoopback says whether host (a name or an address) is this machine only.
func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// IsLoopbackAddr says whether a host:port address listens on loopback only.
func IsLoopbackAddr(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	return err == nil && isLoopback(host)
}

// ConnConfig says how to reach NATS.
type ConnConfig struct {
	// Server is an embedded server to connect to in-process; else URLs.
	Server *server.Server
	URLs   string // comma-separated: nats://a:4222,nats://b:4222
	Name   string // the connection's name, seen in NATS's monitoring
	Token  string
	Creds  string // a NATS user credentials file
	CA     string // a CA file to verify the servers' TLS certificates
}

// Connect opens a connection that reconnects by itself for as long as it
// lives: a worker outlives restarts of NATS and the loss of cluster nodes.
func Connect(cfg ConnConfig) (*nats.Conn, error) {
	opts := []nats.Option{
		nats.Name(cfg.Name),
		nats.MaxReconnects(-1),
		nats.ReconnectWait(250 * time.Millisecond),
		nats.ReconnectJitter(100*time.Millisecond, time.Second),
		nats.RetryOnFailedConnect(true),
		nats.Timeout(5 * time.Second),
	}
	if cfg.Token != "" {
		opts = append(opts, nats.Token(cfg.Token))
	}
	if cfg.Creds != "" {
		opts = append(opts, nats.UserCredentials(cfg.Creds))
	}
	if cfg.CA != "" {
		opts = append(opts, nats.RootCAs(cfg.CA))
	}
	if cfg.Server != nil {
		opts = append(opts, nats.InProcessServer(cfg.Server))
		return nats.Connect("", opts...)
	}
	if cfg.URLs == "" {
		return nil, errors.New("no NATS URL")
	}
	for _, u := range strings.Split(cfg.URLs, ",") {
		if _, err := url.Parse(strings.TrimSpace(u)); err != nil {
			return nil, fmt.Errorf("--nats %s: %w", u, err)
		}
	}
	return nats.Connect(cfg.URLs, opts...)
}
