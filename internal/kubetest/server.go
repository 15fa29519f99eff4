package kubetest

import (
	"context"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"encoding/hex"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/pkg/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
)

// The users every server has.
const (
	// Admin is in system:masters.
	Admin = "admin"
	// Reader is bound to ReaderRole: get and list on everything, nothing else.
	Reader = "reader"
)

// ReaderRole is the ClusterRole bound to Reader's group, ReaderGroup.
const (
	ReaderRole  = "xpmigrate-kubetest-read"
	ReaderGroup = "xpmigrate:readers"
)

// A User is a static-token identity. Users other than Admin and Reader start
// without any permission; a test binds the roles it needs.
type User struct {
	Name   string
	Groups []string
}

// Options configure Start.
type Options struct {
	// Binaries to run; FindBinaries when empty.
	Binaries Binaries
	// Users besides Admin and Reader.
	Users []User
	// KeepDir keeps the temporary directory (logs, audit log, kubeconfigs)
	// after Stop.
	KeepDir bool
	// StartTimeout bounds the wait for etcd and the API server; 2 minutes
	// when zero.
	StartTimeout time.Duration
}

// A Server is a running etcd and kube-apiserver.
type Server struct {
	// URL of the API server, https://127.0.0.1:<port>.
	URL string
	// Dir holds the logs, the audit log and the kubeconfigs.
	Dir string

	caPEM   []byte
	tokens  map[string]string
	keepDir bool
	// etcdDir is etcd's data directory, in memory (/dev/shm) when possible.
	etcdDir string

	apiserver, etcd *process

	mu     sync.Mutex
	syncs  int
	admin  dynamic.Interface
	mapper meta.ResettableRESTMapper
}

type process struct {
	name string
	cmd  *exec.Cmd
	done chan struct{}
	err  error
}

func startProcess(name, path, logFile string, args ...string) (*process, error) {
	log, err := os.Create(logFile) //nolint:gosec // a path under the server's own temporary directory
	if err != nil {
		return nil, errors.Wrapf(err, "cannot create %q", logFile)
	}
	cmd := exec.Command(path, args...) //nolint:gosec // the binaries the test harness was given
	cmd.SysProcAttr = procAttr()
	cmd.Stdout = log
	cmd.Stderr = log
	if err := cmd.Start(); err != nil {
		_ = log.Close()
		return nil, errors.Wrapf(err, "cannot start %s", name)
	}
	p := &process{name: name, cmd: cmd, done: make(chan struct{})}
	go func() {
		p.err = cmd.Wait()
		_ = log.Close()
		close(p.done)
	}()
	return p, nil
}

func (p *process) exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// stop sends SIGTERM to the process it started, waits, and kills it when
// it does not end in time.
func (p *process) stop(grace time.Duration) {
	if p == nil || p.exited() {
		return
	}
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(grace):
		_ = p.cmd.Process.Kill()
		<-p.done
	}
}

func freePorts(n int) ([]int, error) {
	ls := make([]net.Listener, 0, n)
	defer func() {
		for _, l := range ls {
			_ = l.Close()
		}
	}()
	ports := make([]int, 0, n)
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, errors.Wrap(err, "cannot find a free loopback port")
		}
		ls = append(ls, l)
		addr, ok := l.Addr().(*net.TCPAddr)
		if !ok {
			return nil, errors.Errorf("cannot read the port of %v", l.Addr())
		}
		ports = append(ports, addr.Port)
	}
	return ports, nil
}

func randomToken() (string, error) {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		return "", errors.Wrap(err, "cannot generate a token")
	}
	return hex.EncodeToString(b), nil
}

const auditPolicy = `apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: ["RequestReceived"]
rules:
- level: Metadata
`

// Start runs etcd and kube-apiserver on free loopback ports and waits until
// the API server is ready and the reader's role is bound. Stop ends them.
func Start(ctx context.Context, o Options) (*Server, error) {
	if o.Binaries.APIServer == "" || o.Binaries.Etcd == "" {
		b, err := FindBinaries()
		if err != nil {
			return nil, err
		}
		o.Binaries = b
	}
	if o.StartTimeout == 0 {
		o.StartTimeout = 2 * time.Minute
	}
	dir, err := os.MkdirTemp("", "xpmigrate-kubetest-")
	if err != nil {
		return nil, errors.Wrap(err, "cannot create a temporary directory")
	}
	s := &Server{Dir: dir, tokens: map[string]string{}, keepDir: o.KeepDir}
	if err := s.start(ctx, o); err != nil {
		_ = s.Stop()
		return nil, err
	}
	return s, nil
}

func (s *Server) start(ctx context.Context, o Options) error {
	p, err := writePKI(s.Dir)
	if err != nil {
		return err
	}
	s.caPEM = p.caPEM

	users := append([]User{{Name: Admin, Groups: []string{"system:masters"}}, {Name: Reader, Groups: []string{ReaderGroup}}}, o.Users...)
	var tokens strings.Builder
	for i, u := range users {
		if _, dup := s.tokens[u.Name]; dup {
			return errors.Errorf("cannot add user %q twice", u.Name)
		}
		t, err := randomToken()
		if err != nil {
			return err
		}
		s.tokens[u.Name] = t
		fmt.Fprintf(&tokens, "%s,%s,%d,%q\n", t, u.Name, i+1, strings.Join(u.Groups, ","))
	}
	tokenFile := filepath.Join(s.Dir, "tokens.csv")
	policyFile := filepath.Join(s.Dir, "audit-policy.yaml")
	for f, data := range map[string]string{tokenFile: tokens.String(), policyFile: auditPolicy} {
		if err := os.WriteFile(f, []byte(data), 0o600); err != nil {
			return errors.Wrapf(err, "cannot write %q", f)
		}
	}

	ports, err := freePorts(3)
	if err != nil {
		return err
	}
	etcdURL := "http://127.0.0.1:" + strconv.Itoa(ports[0])
	peerURL := "http://127.0.0.1:" + strconv.Itoa(ports[1])
	s.URL = "https://127.0.0.1:" + strconv.Itoa(ports[2])

	ctx, cancel := context.WithTimeout(ctx, o.StartTimeout)
	defer cancel()

	// etcd fsyncs every write; in memory that costs nothing.
	s.etcdDir = filepath.Join(s.Dir, "etcd")
	if st, err := os.Stat("/dev/shm"); err == nil && st.IsDir() {
		if d, err := os.MkdirTemp("/dev/shm", "xpmigrate-kubetest-etcd-"); err == nil {
			s.etcdDir = d
		}
	}
	s.etcd, err = startProcess("etcd", o.Binaries.Etcd, filepath.Join(s.Dir, "etcd.log"),
		"--name", "kubetest", "--data-dir", s.etcdDir,
		"--listen-client-urls", etcdURL, "--advertise-client-urls", etcdURL,
		"--listen-peer-urls", peerURL, "--initial-advertise-peer-urls", peerURL,
		"--initial-cluster", "kubetest="+peerURL,
		"--quota-backend-bytes", strconv.Itoa(1<<30))
	if err != nil {
		return err
	}
	if err := s.waitReady(ctx, s.etcd, http.DefaultClient, etcdURL+"/health", ""); err != nil {
		return err
	}

	s.apiserver, err = startProcess("kube-apiserver", o.Binaries.APIServer, filepath.Join(s.Dir, "kube-apiserver.log"),
		"--etcd-servers", etcdURL,
		"--bind-address", "127.0.0.1", "--advertise-address", "127.0.0.1",
		"--secure-port", strconv.Itoa(ports[2]),
		"--tls-cert-file", p.certFile, "--tls-private-key-file", p.keyFile,
		"--token-auth-file", tokenFile,
		"--authorization-mode", "RBAC",
		"--service-account-issuer", "https://kubernetes.default.svc.cluster.local",
		"--service-account-key-file", p.saPubFile,
		"--service-account-signing-key-file", p.saKeyFile,
		"--service-cluster-ip-range", "10.0.0.0/24",
		"--disable-admission-plugins", "ServiceAccount",
		"--enable-priority-and-fairness=false",
		"--endpoint-reconciler-type=none",
		"--audit-policy-file", policyFile,
		"--audit-log-path", s.AuditLogPath(),
		"--audit-log-mode", "blocking",
		"--audit-log-format", "json",
	)
	if err != nil {
		return err
	}
	hc, err := s.httpClient()
	if err != nil {
		return err
	}
	if err := s.waitReady(ctx, s.apiserver, hc, s.URL+"/readyz", s.tokens[Admin]); err != nil {
		return err
	}

	for name := range s.tokens {
		if err := s.writeKubeconfig(name); err != nil {
			return err
		}
	}
	return s.bindReader(ctx)
}

func (s *Server) httpClient() (*http.Client, error) {
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(s.caPEM) {
		return nil, errors.New("cannot load the test CA")
	}
	return &http.Client{
		Timeout:   5 * time.Second,
		Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}},
	}, nil
}

func (s *Server) waitReady(ctx context.Context, p *process, hc *http.Client, url, token string) error {
	for {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return errors.Wrapf(err, "cannot build a request for %q", url)
		}
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		if resp, err := hc.Do(req); err == nil {
			_ = resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		if p.exited() {
			return errors.Errorf("%s exited early (%v); see %s", p.name, p.err, filepath.Join(s.Dir, p.name+".log"))
		}
		select {
		case <-ctx.Done():
			return errors.Wrapf(ctx.Err(), "%s is not ready at %q; see %s", p.name, url, filepath.Join(s.Dir, p.name+".log"))
		case <-time.After(100 * time.Millisecond):
		}
	}
}

func (s *Server) writeKubeconfig(user string) error {
	cfg := clientcmdapi.NewConfig()
	cfg.Clusters["kubetest"] = &clientcmdapi.Cluster{Server: s.URL, CertificateAuthorityData: s.caPEM}
	cfg.AuthInfos[user] = &clientcmdapi.AuthInfo{Token: s.tokens[user]}
	cfg.Contexts[user] = &clientcmdapi.Context{Cluster: "kubetest", AuthInfo: user}
	cfg.CurrentContext = user
	return errors.Wrapf(clientcmd.WriteToFile(*cfg, s.Kubeconfig(user)), "cannot write the kubeconfig of %q", user)
}

// Kubeconfig is the path of user's kubeconfig; its current context is the
// user's.
func (s *Server) Kubeconfig(user string) string {
	return filepath.Join(s.Dir, user+".kubeconfig")
}

// RESTConfig returns a client configuration for user.
func (s *Server) RESTConfig(user string) *rest.Config {
	return &rest.Config{
		Host:            s.URL,
		BearerToken:     s.tokens[user],
		TLSClientConfig: rest.TLSClientConfig{CAData: s.caPEM},
		QPS:             -1, // no client-side rate limit for the test set-up
	}
}

// AuditLogPath is the API server's audit log, one JSON event per line.
func (s *Server) AuditLogPath() string {
	return filepath.Join(s.Dir, "audit.log")
}

func (s *Server) bindReader(ctx context.Context) error {
	role := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "rbac.authorization.k8s.io/v1",
		"kind":       "ClusterRole",
		"metadata":   map[string]any{"name": ReaderRole},
		"rules": []any{map[string]any{
			"apiGroups": []any{"*"},
			"resources": []any{"*"},
			"verbs":     []any{"get", "list"},
		}},
	}}
	binding := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "rbac.authorization.k8s.io/v1",
		"kind":       "ClusterRoleBinding",
		"metadata":   map[string]any{"name": ReaderRole},
		"roleRef":    map[string]any{"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": ReaderRole},
		"subjects":   []any{map[string]any{"apiGroup": "rbac.authorization.k8s.io", "kind": "Group", "name": ReaderGroup}},
	}}
	return s.Create(ctx, role, binding)
}

// Stop ends the API server, then etcd (the processes Start started), and
// removes the temporary directory unless Options.KeepDir.
func (s *Server) Stop() error {
	s.apiserver.stop(30 * time.Second)
	s.etcd.stop(30 * time.Second)
	if s.etcdDir != "" && !strings.HasPrefix(s.etcdDir, s.Dir) {
		if err := os.RemoveAll(s.etcdDir); err != nil {
			return errors.Wrapf(err, "cannot remove %q", s.etcdDir)
		}
	}
	if s.keepDir {
		return nil
	}
	return errors.Wrapf(os.RemoveAll(s.Dir), "cannot remove %q", s.Dir)
}
