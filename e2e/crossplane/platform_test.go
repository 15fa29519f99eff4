//go:build e2e_crossplane

package crossplanee2e

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"io"
	"math/big"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pkg/errors"
	kerrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/client-go/dynamic"

	"github.com/xpmigrate/xpmigrate/internal/kubetest"
)

// The programs a platform runs, found by findBinaries.
type binaries struct {
	CoreV1, CoreV2, PatchAndTransform, ControllerManager string
	// CRDsV1 and CRDsV2 are core's CRDs, copied beside each core binary.
	CRDsV1, CRDsV2 string
	// Built by TestMain from this checkout.
	XPMigrate, Provider string
}

var bins binaries

// findBinaries reads hack/crossplane.sh's cache (its env command names the
// variables that override each path).
func findBinaries() (binaries, error) {
	var b binaries
	for _, p := range []struct {
		name, env string
		to        *string
	}{
		{"crossplane-v1", "XPMIGRATE_CROSSPLANE_V1", &b.CoreV1},
		{"crossplane-v2", "XPMIGRATE_CROSSPLANE_V2", &b.CoreV2},
		{"function-pat", "XPMIGRATE_FUNCTION_PAT", &b.PatchAndTransform},
		{"kube-controller-manager", "XPMIGRATE_KUBE_CONTROLLER_MANAGER", &b.ControllerManager},
	} {
		if v := os.Getenv(p.env); v != "" {
			*p.to = v
			continue
		}
		out, err := exec.Command("../../hack/crossplane.sh", "path", p.name).Output()
		if err != nil {
			return b, errors.Errorf("cannot find %s: run hack/crossplane.sh build %s (or make e2e-crossplane)", p.name, p.name)
		}
		*p.to = strings.TrimSpace(string(out))
	}
	b.CRDsV1 = filepath.Join(filepath.Dir(b.CoreV1), "crds")
	b.CRDsV2 = filepath.Join(filepath.Dir(b.CoreV2), "crds")
	return b, nil
}

// buildFromCheckout builds xpmigrate and the test provider into dir.
func buildFromCheckout(dir string) (xpmigrate, provider string, err error) {
	xpmigrate = filepath.Join(dir, "xpmigrate")
	provider = filepath.Join(dir, "provider")
	for _, b := range []struct{ wd, out, pkg string }{
		{"../..", xpmigrate, "./cmd/xpmigrate"},
		{"provider", provider, "."},
	} {
		cmd := exec.Command("go", "build", "-o", b.out, b.pkg)
		cmd.Dir = b.wd
		cmd.Env = append(os.Environ(), "GOWORK=off")
		if out, err := cmd.CombinedOutput(); err != nil {
			return "", "", errors.Wrapf(err, "cannot build %s: %s", b.pkg, out)
		}
	}
	return xpmigrate, provider, nil
}

// A proc is a program the platform started; stop ends it by its PID.
type proc struct {
	name string
	cmd  *exec.Cmd
	log  string
	done chan struct{}
	// stopped is set when the harness stopped it on purpose.
	stopped bool
}

func (p *platform) start(name string, env []string, path string, args ...string) (*proc, error) {
	log := filepath.Join(p.dir, name+".log")
	f, err := os.Create(log)
	if err != nil {
		return nil, errors.Wrapf(err, "cannot create %q", log)
	}
	cmd := exec.Command(path, args...)
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdout, cmd.Stderr = f, f
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGTERM}
	if err := cmd.Start(); err != nil {
		_ = f.Close()
		return nil, errors.Wrapf(err, "cannot start %s", name)
	}
	pr := &proc{name: name, cmd: cmd, log: log, done: make(chan struct{})}
	go func() {
		_ = cmd.Wait()
		_ = f.Close()
		close(pr.done)
	}()
	p.procs = append(p.procs, pr)
	return pr, nil
}

func (pr *proc) exited() bool {
	select {
	case <-pr.done:
		return true
	default:
		return false
	}
}

// stop sends SIGTERM and waits; SIGKILL after grace.
func (pr *proc) stop(grace time.Duration) {
	if pr == nil || pr.exited() {
		return
	}
	pr.stopped = true
	_ = pr.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-pr.done:
	case <-time.After(grace):
		_ = pr.cmd.Process.Kill()
		<-pr.done
	}
}

// tail is the end of a process's log, for failure messages.
func (pr *proc) tail() string {
	b, _ := os.ReadFile(pr.log)
	if len(b) > 4000 {
		b = b[len(b)-4000:]
	}
	return string(b)
}

// A platform is one test's cluster: etcd, kube-apiserver,
// kube-controller-manager, the function, the test provider and core.
type platform struct {
	t      *testing.T
	ctx    context.Context
	server *kubetest.Server
	dyn    dynamic.Interface
	dir    string
	// Cloud is the fake cloud's directory.
	Cloud string
	procs []*proc
	core  *proc

	fnAddr       string
	fnDir, xpDir string
	kinds        []schema.GroupVersionKind
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, errors.Wrap(err, "cannot find a free port")
	}
	defer func() { _ = l.Close() }()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// newPlatform starts everything but core, which startCore starts. The
// provider serves kinds (their CRDs are installed first).
func newPlatform(t *testing.T, crds []*unstructured.Unstructured) *platform {
	t.Helper()
	ctx := context.Background()
	s, err := kubetest.Start(ctx, kubetest.Options{KeepDir: os.Getenv("XPMIGRATE_E2E_KEEP") != "", StartTimeout: 5 * time.Minute})
	if err != nil {
		t.Fatalf("kubetest.Start(): %v", err)
	}
	p := &platform{t: t, ctx: ctx, server: s, dir: s.Dir, Cloud: filepath.Join(s.Dir, "cloud")}
	t.Cleanup(func() {
		for i := len(p.procs) - 1; i >= 0; i-- {
			p.procs[i].stop(30 * time.Second)
		}
		if t.Failed() {
			t.Logf("platform directory (logs, audit log, fake cloud): %s", p.dir)
			return
		}
		if err := s.Stop(); err != nil {
			t.Errorf("Stop(): %v", err)
		}
	})
	dyn, _, err := s.Client(kubetest.Admin)
	if err != nil {
		t.Fatal(err)
	}
	p.dyn = dyn

	// Composed resources go away through their owner references.
	if _, err := p.start("kube-controller-manager", nil, bins.ControllerManager,
		"--kubeconfig", s.Kubeconfig(kubetest.Admin),
		"--controllers", "garbagecollector,namespace",
		"--leader-elect=false", "--secure-port=0",
		"--use-service-account-credentials=false"); err != nil {
		t.Fatal(err)
	}

	if err := p.writeCerts(); err != nil {
		t.Fatal(err)
	}
	port, err := freePort()
	if err != nil {
		t.Fatal(err)
	}
	p.fnAddr = "127.0.0.1:" + strconv.Itoa(port)
	if _, err := p.start("function-patch-and-transform", nil, bins.PatchAndTransform,
		"--address", p.fnAddr, "--tls-certs-dir", p.fnDir, "--debug"); err != nil {
		t.Fatal(err)
	}

	if err := p.applyDir(bins.CRDsV1); err != nil {
		t.Fatal(err)
	}
	if err := p.server.Create(ctx, object("v1", "Namespace", "", "crossplane-system", nil)); err != nil {
		t.Fatal(err)
	}
	if err := p.functionRevision(); err != nil {
		t.Fatal(err)
	}

	if err := s.InstallCRDs(ctx, crds...); err != nil {
		t.Fatal(err)
	}
	args := []string{"--cloud", p.Cloud, "--poll", "5s", "--debug"}
	for _, c := range crds {
		group, _, _ := unstructured.NestedString(c.Object, "spec", "group")
		kind, _, _ := unstructured.NestedString(c.Object, "spec", "names", "kind")
		versions, _, _ := unstructured.NestedSlice(c.Object, "spec", "versions")
		for _, v := range versions {
			name, _, _ := unstructured.NestedString(v.(map[string]any), "name")
			args = append(args, "--kind", kind+"."+group+"/"+name)
			p.kinds = append(p.kinds, schema.GroupVersionKind{Group: group, Version: name, Kind: kind})
		}
	}
	if _, err := p.start("provider", []string{"KUBECONFIG=" + s.Kubeconfig(kubetest.Admin)}, bins.Provider, args...); err != nil {
		t.Fatal(err)
	}
	return p
}

// startCore starts Crossplane core from bin as a plain process.
func (p *platform) startCore(name, bin string) {
	p.t.Helper()
	pr, err := p.start(name, []string{
		"KUBECONFIG=" + p.server.Kubeconfig(kubetest.Admin),
		"POD_NAMESPACE=crossplane-system",
	}, bin, "core", "start", "--debug",
		"--enable-webhooks=false", "--package-runtime=External",
		"--tls-client-certs-dir", p.xpDir,
		"--cache-dir", filepath.Join(p.dir, "xpkg-"+name),
		"--metrics-port=0", "--health-probe-port=0")
	if err != nil {
		p.t.Fatal(err)
	}
	p.core = pr
}

// stopCore stops core and waits until it has exited: two cores never run
// at once.
func (p *platform) stopCore() {
	p.core.stop(time.Minute)
	p.core = nil
}

// writeCerts writes a CA, the function's server certificate (fn/) and
// core's client certificate (xp/), each directory with ca.crt, tls.crt and
// tls.key as function-sdk-go and core read them.
func (p *platform) writeCerts() error {
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return errors.Wrap(err, "cannot generate a key")
	}
	now := time.Now()
	caTmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "xpmigrate-e2e-functions-ca"},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(24 * time.Hour),
		KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature, BasicConstraintsValid: true, IsCA: true,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		return errors.Wrap(err, "cannot create the CA")
	}
	ca, err := x509.ParseCertificate(caDER)
	if err != nil {
		return errors.Wrap(err, "cannot parse the CA")
	}
	caPEM := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: caDER})
	p.fnDir, p.xpDir = filepath.Join(p.dir, "tls-fn"), filepath.Join(p.dir, "tls-xp")
	for i, c := range []struct {
		dir   string
		cn    string
		usage x509.ExtKeyUsage
	}{
		{p.fnDir, "function-patch-and-transform", x509.ExtKeyUsageServerAuth},
		{p.xpDir, "crossplane", x509.ExtKeyUsageClientAuth},
	} {
		key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		if err != nil {
			return errors.Wrap(err, "cannot generate a key")
		}
		tmpl := &x509.Certificate{
			SerialNumber: big.NewInt(int64(i + 2)), Subject: pkix.Name{CommonName: c.cn},
			NotBefore: now.Add(-time.Hour), NotAfter: now.Add(24 * time.Hour),
			KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{c.usage},
			DNSNames: []string{"localhost"}, IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)},
		}
		der, err := x509.CreateCertificate(rand.Reader, tmpl, ca, &key.PublicKey, caKey)
		if err != nil {
			return errors.Wrap(err, "cannot create a certificate")
		}
		keyDER, err := x509.MarshalECPrivateKey(key)
		if err != nil {
			return errors.Wrap(err, "cannot encode a key")
		}
		if err := os.MkdirAll(c.dir, 0o700); err != nil {
			return errors.Wrapf(err, "cannot create %q", c.dir)
		}
		for name, data := range map[string][]byte{
			"ca.crt":  caPEM,
			"tls.crt": pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}),
			"tls.key": pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER}),
		} {
			if err := os.WriteFile(filepath.Join(c.dir, name), data, 0o600); err != nil {
				return errors.Wrapf(err, "cannot write %q", name)
			}
		}
	}
	return nil
}

var functionRevisions = schema.GroupVersionResource{Group: "pkg.crossplane.io", Version: "v1", Resource: "functionrevisions"}

// functionRevision makes the paused, active FunctionRevision that points
// Pipeline mode at the function process: core reads its status.endpoint,
// and v2 composes only when status.capabilities has composition (v1.20's
// schema prunes it; setFunctionStatus writes it again after an upgrade).
func (p *platform) functionRevision() error {
	fr := object("pkg.crossplane.io/v1", "FunctionRevision", "", "function-patch-and-transform-local", map[string]any{
		"image":        "xpkg.crossplane.io/crossplane-contrib/function-patch-and-transform:v0.10.7",
		"desiredState": "Active",
		"revision":     int64(1),
	})
	fr.SetLabels(map[string]string{"pkg.crossplane.io/package": "function-patch-and-transform"})
	fr.SetAnnotations(map[string]string{"crossplane.io/paused": "true"})
	if err := p.server.Create(p.ctx, fr); err != nil {
		return err
	}
	return p.setFunctionStatus()
}

func (p *platform) setFunctionStatus() error {
	patch := `{"status":{"endpoint":"dns:///` + p.fnAddr + `","capabilities":["composition"]}}`
	_, err := p.dyn.Resource(functionRevisions).Patch(p.ctx, "function-patch-and-transform-local", types.MergePatchType, []byte(patch), metav1.PatchOptions{}, "status")
	return errors.Wrap(err, "cannot write the FunctionRevision's status")
}

func object(apiVersion, kind, namespace, name string, spec map[string]any) *unstructured.Unstructured {
	u := &unstructured.Unstructured{Object: map[string]any{"apiVersion": apiVersion, "kind": kind}}
	u.SetName(name)
	u.SetNamespace(namespace)
	if spec != nil {
		u.Object["spec"] = spec
	}
	return u
}

// readObjects reads every document of the YAML files given.
func readObjects(paths ...string) ([]*unstructured.Unstructured, error) {
	var out []*unstructured.Unstructured
	for _, path := range paths {
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, errors.Wrapf(err, "cannot read %q", path)
		}
		d := yaml.NewYAMLOrJSONDecoder(bytes.NewReader(b), 4096)
		for {
			u := &unstructured.Unstructured{}
			if err := d.Decode(&u.Object); errors.Is(err, io.EOF) {
				break
			} else if err != nil {
				return nil, errors.Wrapf(err, "cannot parse %q", path)
			}
			if len(u.Object) > 0 {
				out = append(out, u)
			}
		}
	}
	return out, nil
}

// applyDir applies every CRD file in dir server-side (some of core's CRDs
// are too large for a client-side apply's annotation), forcing conflicts as
// an upgrade does, and waits until they are served.
func (p *platform) applyDir(dir string) error {
	files, err := filepath.Glob(filepath.Join(dir, "*.yaml"))
	if err != nil || len(files) == 0 {
		return errors.Errorf("cannot find CRDs in %q", dir)
	}
	objs, err := readObjects(files...)
	if err != nil {
		return err
	}
	if err := p.apply(objs...); err != nil {
		return err
	}
	return p.server.WaitForCRDs(p.ctx, objs...)
}

// apply applies objs server-side as the field manager xpmigrate-e2e.
func (p *platform) apply(objs ...*unstructured.Unstructured) error {
	for _, o := range objs {
		m, err := p.server.Mapping(o.GroupVersionKind())
		if err != nil {
			return errors.Wrapf(err, "cannot map %s", o.GroupVersionKind())
		}
		ri := p.resource(m, o.GetNamespace())
		if _, err := ri.Apply(p.ctx, o.GetName(), o, metav1.ApplyOptions{FieldManager: "xpmigrate-e2e", Force: true}); err != nil {
			return errors.Wrapf(err, "cannot apply %s %q", o.GetKind(), o.GetName())
		}
	}
	return nil
}

// replace replaces an object's content with o's, as kubectl replace does
// (a server-side apply would keep the fields o no longer has, such as a
// legacy Composition's spec.resources).
func (p *platform) replace(o *unstructured.Unstructured) error {
	m, err := p.server.Mapping(o.GroupVersionKind())
	if err != nil {
		return errors.Wrapf(err, "cannot map %s", o.GroupVersionKind())
	}
	ri := p.resource(m, o.GetNamespace())
	cur, err := ri.Get(p.ctx, o.GetName(), metav1.GetOptions{})
	if err != nil {
		return errors.Wrapf(err, "cannot get %s %q", o.GetKind(), o.GetName())
	}
	n := o.DeepCopy()
	n.SetResourceVersion(cur.GetResourceVersion())
	_, err = ri.Update(p.ctx, n, metav1.UpdateOptions{})
	return errors.Wrapf(err, "cannot replace %s %q", o.GetKind(), o.GetName())
}

func (p *platform) resource(m *meta.RESTMapping, namespace string) dynamic.ResourceInterface {
	if m.Scope.Name() == meta.RESTScopeNameNamespace {
		return p.dyn.Resource(m.Resource).Namespace(namespace)
	}
	return p.dyn.Resource(m.Resource)
}

// get reads one object; nil when it does not exist.
func (p *platform) get(gvk schema.GroupVersionKind, namespace, name string) (*unstructured.Unstructured, error) {
	m, err := p.server.Mapping(gvk)
	if err != nil {
		return nil, errors.Wrapf(err, "cannot map %s", gvk)
	}
	u, err := p.resource(m, namespace).Get(p.ctx, name, metav1.GetOptions{})
	if kerrors.IsNotFound(err) {
		return nil, nil
	}
	return u, errors.Wrapf(err, "cannot get %s %q", gvk.Kind, name)
}

// list lists every object of gvk.
func (p *platform) list(gvk schema.GroupVersionKind) ([]unstructured.Unstructured, error) {
	m, err := p.server.Mapping(gvk)
	if err != nil {
		return nil, errors.Wrapf(err, "cannot map %s", gvk)
	}
	l, err := p.dyn.Resource(m.Resource).List(p.ctx, metav1.ListOptions{})
	if err != nil {
		return nil, errors.Wrapf(err, "cannot list %s", gvk)
	}
	return l.Items, nil
}

// waitFor polls done until it is true, the timeout passes, or core exits.
func (p *platform) waitFor(what string, timeout time.Duration, done func() (bool, error)) {
	p.t.Helper()
	deadline := time.Now().Add(timeout)
	var lastErr error
	for {
		ok, err := done()
		if ok {
			return
		}
		lastErr = err
		for _, pr := range p.procs {
			if pr.exited() && !pr.stopped {
				p.t.Fatalf("%s exited while waiting for %s; its log ends:\n%s", pr.name, what, pr.tail())
			}
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("timed out after %s waiting for %s (last error: %v)", timeout, what, lastErr)
		}
		time.Sleep(time.Second)
	}
}

// condition returns the status of u's condition typ.
func condition(u *unstructured.Unstructured, typ string) string {
	conds, _, _ := unstructured.NestedSlice(u.Object, "status", "conditions")
	for _, c := range conds {
		m, _ := c.(map[string]any)
		if m["type"] == typ {
			s, _ := m["status"].(string)
			return s
		}
	}
	return ""
}

// managedCRD is the CRD of a managed resource kind the test provider
// serves: any spec and status (the provider reads spec.forProvider and
// writes status.atProvider and conditions), a status subresource, and the
// categories managed resources have.
func managedCRD(gvk schema.GroupVersionKind, namespaced bool) *unstructured.Unstructured {
	plural := strings.ToLower(gvk.Kind) + "s"
	scope := "Cluster"
	if namespaced {
		scope = "Namespaced"
	}
	open := map[string]any{"type": "object", "x-kubernetes-preserve-unknown-fields": true}
	crd := object("apiextensions.k8s.io/v1", "CustomResourceDefinition", "", plural+"."+gvk.Group, map[string]any{
		"group": gvk.Group,
		"scope": scope,
		"names": map[string]any{
			"kind": gvk.Kind, "listKind": gvk.Kind + "List", "plural": plural, "singular": strings.ToLower(gvk.Kind),
			"categories": []any{"crossplane", "managed"},
		},
		"versions": []any{map[string]any{
			"name": gvk.Version, "served": true, "storage": true,
			"subresources": map[string]any{"status": map[string]any{}},
			"schema": map[string]any{"openAPIV3Schema": map[string]any{
				"type": "object",
				"properties": map[string]any{
					"spec": open, "status": open,
				},
			}},
		}},
	})
	return crd
}

// namespacesOf are the namespaces o needs: its own and those it writes
// connection Secrets to (a Composition's writeConnectionSecretsToNamespace,
// an XR's or a composed resource template's writeConnectionSecretToRef).
func namespacesOf(o *unstructured.Unstructured) []string {
	out := []string{o.GetNamespace()}
	ns, _, _ := unstructured.NestedString(o.Object, "spec", "writeConnectionSecretsToNamespace")
	out = append(out, ns)
	ns, _, _ = unstructured.NestedString(o.Object, "spec", "writeConnectionSecretToRef", "namespace")
	out = append(out, ns)
	rs, _, _ := unstructured.NestedSlice(o.Object, "spec", "resources")
	for _, r := range rs {
		m, _ := r.(map[string]any)
		ns, _, _ = unstructured.NestedString(m, "base", "spec", "writeConnectionSecretToRef", "namespace")
		out = append(out, ns)
	}
	return out
}

// createNamespaces creates the namespaces objs need (namespacesOf), as the
// platform they come from has them.
func (p *platform) createNamespaces(objs ...*unstructured.Unstructured) error {
	seen := map[string]bool{"": true, "crossplane-system": true, "default": true, "kube-system": true, "kube-public": true}
	for _, o := range objs {
		for _, ns := range namespacesOf(o) {
			if seen[ns] {
				continue
			}
			seen[ns] = true
			if err := p.server.Create(p.ctx, object("v1", "Namespace", "", ns, nil)); err != nil {
				return err
			}
		}
	}
	return nil
}
