package main

import (
	"net"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
)

// TestRenderingNoNetworkNoProcesses (docs/safety.md, "No network, no
// child process but git"): render, verify, convert, migrate (without
// --base or --cluster) and plan v2 --from contact no network and start no
// process. Every proxy variable and the kubeconfig point at a listener that
// counts connections, and PATH holds only programs (git, docker, sh,
// kubectl, crossplane …) that leave a mark when run: after every command,
// there is no connection and no mark.
func TestRenderingNoNetworkNoProcesses(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	var conns atomic.Int64
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			conns.Add(1)
			_ = c.Close()
		}
	}()
	url := "http://" + l.Addr().String()

	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	marks := filepath.Join(dir, "marks")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"git", "docker", "podman", "sh", "bash", "kubectl", "crossplane", "helm", "kustomize", "go", "curl"} {
		script := "#!/bin/sh\necho " + p + " >> " + marks + "\n"
		if err := os.WriteFile(filepath.Join(bin, p), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	kubeconfig := filepath.Join(dir, "kubeconfig")
	if err := os.WriteFile(kubeconfig, []byte(`apiVersion: v1
kind: Config
clusters: [{name: c, cluster: {server: `+url+`}}]
users: [{name: u, user: {token: t}}]
contexts: [{name: c, context: {cluster: c, user: u}}]
current-context: c
`), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin)
	t.Setenv("KUBECONFIG", kubeconfig)
	for _, k := range []string{"HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"} {
		t.Setenv(k, url)
	}
	t.Setenv("NO_PROXY", "")
	t.Setenv("no_proxy", "")

	write := func(name, content string) string {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	comp := write("repo/apis/composition.yaml", migrateLegacy)
	xr := write("repo/examples/xr.yaml", migrateXR)
	td := filepath.Join("..", "..", "convert", "migrate", "plan", "testdata")
	for name, args := range map[string][]string{
		"Render":  {"render", xr, comp},
		"Verify":  {"verify", "--xr", xr, comp},
		"Convert": {"convert", comp},
		"Migrate": {"migrate", "--dry-run", "--synthesize", "2", filepath.Join(dir, "repo")},
		"Plan": {"plan", "v2", "--from", filepath.Join(td, "platform.yaml"), "--from", filepath.Join(td, "live.yaml"),
			"--xr-naming", "new-group", "--xr-group", "v2.example.org", "--provider-crds", filepath.Join(td, "crds.yaml"), "--out", filepath.Join(dir, "plan")},
	} {
		code, _, stderr := runWithin(t, args...)
		if code != exitOK {
			t.Errorf("%s: xpmigrate %v: exit %d, want 0\n%s", name, args, code, stderr)
		}
		if n := conns.Load(); n > 0 {
			t.Errorf("%s: xpmigrate %v opened %d network connections", name, args, n)
		}
		if m, err := os.ReadFile(marks); err == nil {
			t.Errorf("%s: xpmigrate %v ran programs:\n%s", name, args, m)
		}
	}
}
