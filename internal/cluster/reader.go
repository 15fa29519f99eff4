package cluster

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"sort"
	"sync"

	"github.com/pkg/errors"
	kerrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/discovery/cached/memory"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/restmapper"

	"github.com/xpmigrate/xpmigrate/internal/xp"
)

// The defaults of Options: gentle on a production API server. Each XR costs
// one get per composed resource (plus its claim and Secrets), so at 50
// requests a second an XR of 10 resources takes about 0.2 s. Composed
// resources are read with gets, never with a list by label: the API server
// answers a get in constant time but filters every object of the kind for a
// labelled list (measured here, 2,000 XRs of 10 composed resources: with
// one list by crossplane.io/composite per XR the read had not finished after
// 17 minutes, kube-apiserver at 95% CPU; with gets it takes 23 s unthrottled).
const (
	DefaultQPS         = 50
	DefaultBurst       = 100
	DefaultConcurrency = 4
	DefaultPageSize    = 250
	// DefaultMaxResponseSize bounds the body of one response: a page of
	// 250 objects of 256 KiB each. The API server's own bound on a stored
	// object is 1.5 MiB (etcd's request limit), and real Compositions are
	// under 400 KiB.
	DefaultMaxResponseSize = 64 << 20
)

// Options configure a Reader.
type Options struct {
	// Namespace keeps only the XRs whose claim (spec.claimRef) is in this
	// namespace; every XR when empty.
	Namespace string
	// QPS and Burst are the client-side rate limit (DefaultQPS, DefaultBurst
	// when zero; a negative QPS disables it).
	QPS   float32
	Burst int
	// Concurrency is how many XRs are fetched at once (DefaultConcurrency
	// when zero or negative). Each fetch sends its requests one by one.
	Concurrency int
	// PageSize is the limit of every list request (DefaultPageSize when zero
	// or negative).
	PageSize int64
	// ConnectionSecrets reads the connection Secrets of each XR and of its
	// composed resources (spec.writeConnectionSecretToRef) as digests.
	ConnectionSecrets bool
	// MaxResponseSize bounds the body of every response of the API server,
	// in bytes (DefaultMaxResponseSize when zero or negative): a larger
	// one is a *ResponseTooLargeError, read no further.
	MaxResponseSize int64
	// Listed, when set, is called by Composites after each page of XRs it
	// lists (from the goroutine that lists, not the one that calls fn):
	// a progress bar's total.
	Listed func(Listing)
}

// A Listing says how far Composites has listed the XRs of a Composition's
// kind.
type Listing struct {
	// Composition is the Composition whose XRs are listed.
	Composition string
	// Listed counts the XRs of the kind listed so far; Skipped those of
	// them that do not run the Composition or are outside the Namespace.
	Listed, Skipped int
	// Total is the number of XRs of the kind (the first page's items plus
	// its ListMeta.RemainingItemCount), or -1 when the API server did not
	// say (it omits the count for some lists) and the listing is not
	// Complete.
	Total int
	// Complete says every page is listed: Listed is then the total.
	Complete bool
}

// A Permission is a request the API server forbade.
type Permission struct {
	Verb     string
	Group    string
	Resource string
	// Namespace is empty for a cluster-wide request.
	Namespace string
}

// String names the permission as an RBAC rule would: "list
// compositions.apiextensions.crossplane.io (cluster-wide)" or "get secrets in
// namespace team-a".
func (p Permission) String() string {
	res := p.Resource
	if p.Group != "" {
		res += "." + p.Group
	}
	if p.Namespace == "" {
		return p.Verb + " " + res + " (cluster-wide)"
	}
	return p.Verb + " " + res + " in namespace " + p.Namespace
}

// A Reader reads a cluster with get and list requests only.
type Reader struct {
	dyn    dynamic.Interface
	mapper meta.ResettableRESTMapper
	o      Options
	key    []byte

	mu      sync.Mutex
	missing map[Permission]bool
}

// NewReader returns a Reader for the cluster cfg points at. cfg is copied;
// its rate limit is replaced by the Options'.
func NewReader(cfg *rest.Config, o Options) (*Reader, error) {
	if o.QPS == 0 {
		o.QPS = DefaultQPS
	}
	if o.Burst <= 0 {
		o.Burst = DefaultBurst
	}
	if o.Concurrency <= 0 {
		o.Concurrency = DefaultConcurrency
	}
	if o.PageSize <= 0 {
		o.PageSize = DefaultPageSize
	}
	if o.MaxResponseSize <= 0 {
		o.MaxResponseSize = DefaultMaxResponseSize
	}
	cfg = rest.CopyConfig(cfg)
	cfg.QPS, cfg.Burst = o.QPS, o.Burst
	if cfg.UserAgent == "" {
		cfg.UserAgent = "xpmigrate"
	}
	hc, err := httpClient(cfg, o.MaxResponseSize)
	if err != nil {
		return nil, err
	}
	dc, err := discovery.NewDiscoveryClientForConfigAndClient(cfg, hc)
	if err != nil {
		return nil, errors.Wrap(err, "cannot create a discovery client")
	}
	dyn, err := dynamic.NewForConfigAndClient(cfg, hc)
	if err != nil {
		return nil, errors.Wrap(err, "cannot create a dynamic client")
	}
	key := make([]byte, 32)
	if _, err := rand.Read(key); err != nil {
		return nil, errors.Wrap(err, "cannot generate the digest key")
	}
	return &Reader{
		dyn:     dyn,
		mapper:  restmapper.NewDeferredDiscoveryRESTMapper(memory.NewMemCacheClient(dc)),
		o:       o,
		key:     key,
		missing: map[Permission]bool{},
	}, nil
}

// Missing returns the permissions the API server refused so far, sorted.
func (r *Reader) Missing() []Permission {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]Permission, 0, len(r.missing))
	for p := range r.missing {
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Group != b.Group {
			return a.Group < b.Group
		}
		if a.Resource != b.Resource {
			return a.Resource < b.Resource
		}
		if a.Namespace != b.Namespace {
			return a.Namespace < b.Namespace
		}
		return a.Verb < b.Verb
	})
	return out
}

// forbidden records err as a missing permission when the API server
// forbade the request.
func (r *Reader) forbidden(err error, verb string, gvr schema.GroupVersionResource, namespace string) bool {
	if !kerrors.IsForbidden(err) {
		return false
	}
	r.mu.Lock()
	r.missing[Permission{Verb: verb, Group: gvr.Group, Resource: gvr.Resource, Namespace: namespace}] = true
	r.mu.Unlock()
	return true
}

// Digest is the keyed digest (HMAC-SHA256, hex) of a secret value under this
// Reader's random key: equal values have equal digests within one Reader, and
// a digest reveals nothing of the value outside it.
func (r *Reader) Digest(value []byte) string {
	m := hmac.New(sha256.New, r.key)
	m.Write(value)
	return hex.EncodeToString(m.Sum(nil))
}

// errUnserved is returned by mapping when the API server serves no such kind.
var errUnserved = errors.New("kind is not served")

// mapping resolves a kind to its resource, refreshing discovery once when
// the kind is new to the mapper (a CRD installed since).
func (r *Reader) mapping(gvk schema.GroupVersionKind) (*meta.RESTMapping, error) {
	var versions []string
	if gvk.Version != "" {
		versions = []string{gvk.Version}
	}
	m, err := r.mapper.RESTMapping(gvk.GroupKind(), versions...)
	if meta.IsNoMatchError(err) {
		r.mapper.Reset()
		m, err = r.mapper.RESTMapping(gvk.GroupKind(), versions...)
	}
	if meta.IsNoMatchError(err) {
		return nil, errors.Wrapf(errUnserved, "cannot map %s", gvk)
	}
	return m, errors.Wrapf(err, "cannot map %s", gvk)
}

func (r *Reader) resource(m *meta.RESTMapping, namespace string) dynamic.ResourceInterface {
	if m.Scope.Name() == meta.RESTScopeNameNamespace {
		return r.dyn.Resource(m.Resource).Namespace(namespace)
	}
	return r.dyn.Resource(m.Resource)
}

// list pages through a list request, calling page for each page. It
// reports false when the list was forbidden (and records the permission).
func (r *Reader) list(ctx context.Context, m *meta.RESTMapping, namespace string, opts metav1.ListOptions, page func(*unstructured.UnstructuredList) error) (bool, error) {
	opts.Limit = r.o.PageSize
	opts.Continue = ""
	// A continue token the API server gives twice would page for ever.
	seen := map[string]bool{}
	for {
		l, err := r.resource(m, namespace).List(ctx, opts)
		if r.forbidden(err, "list", m.Resource, namespace) {
			return false, nil
		}
		if err != nil {
			return false, errors.Wrapf(err, "cannot list %s", m.Resource.GroupResource())
		}
		if err := page(l); err != nil {
			return true, err
		}
		if opts.Continue = l.GetContinue(); opts.Continue == "" {
			return true, nil
		}
		if seen[opts.Continue] {
			return true, errors.Errorf("cannot list %s: the API server returned the same continue token twice (the list would never end)", m.Resource.GroupResource())
		}
		seen[opts.Continue] = true
	}
}

// listAll collects every object of a list.
func (r *Reader) listAll(ctx context.Context, gvk schema.GroupVersionKind, namespace string, opts metav1.ListOptions) ([]*unstructured.Unstructured, error) {
	m, err := r.mapping(gvk)
	if err != nil {
		return nil, err
	}
	var out []*unstructured.Unstructured
	_, err = r.list(ctx, m, namespace, opts, func(l *unstructured.UnstructuredList) error {
		for i := range l.Items {
			out = append(out, &l.Items[i])
		}
		return nil
	})
	return out, err
}

// get reads one object. It returns nil and no error when the object does
// not exist or reading it is forbidden (recorded), with the reason.
func (r *Reader) get(ctx context.Context, m *meta.RESTMapping, namespace, name string) (*unstructured.Unstructured, State, error) {
	u, err := r.resource(m, namespace).Get(ctx, name, metav1.GetOptions{})
	switch {
	case err == nil:
		return u, Found, nil
	case kerrors.IsNotFound(err):
		return nil, NotFound, nil
	case r.forbidden(err, "get", m.Resource, namespace):
		return nil, Forbidden, nil
	}
	return nil, "", errors.Wrapf(err, "cannot get %s %q", m.Resource.GroupResource(), name)
}

// Compositions lists the cluster's Compositions.
func (r *Reader) Compositions(ctx context.Context) ([]*unstructured.Unstructured, error) {
	return r.listAll(ctx, schema.GroupVersionKind{Group: xp.GroupAPIExtensions, Version: "v1", Kind: "Composition"}, "", metav1.ListOptions{})
}

// CompositionRevisions lists the CompositionRevisions of the Composition
// named composition (by their crossplane.io/composition-name label), every
// revision when composition is empty.
func (r *Reader) CompositionRevisions(ctx context.Context, composition string) ([]*unstructured.Unstructured, error) {
	opts := metav1.ListOptions{}
	if composition != "" {
		opts.LabelSelector = xp.LabelCompositionName + "=" + composition
	}
	return r.listAll(ctx, schema.GroupVersionKind{Group: xp.GroupAPIExtensions, Version: "v1", Kind: "CompositionRevision"}, "", opts)
}

// A Function is a Function the cluster runs: its name, which functionRefs
// use, and its package.
type Function struct {
	Name, Package string
}

// Functions lists the cluster's Functions (pkg.crossplane.io/v1). ok is
// false when they cannot be listed: the kind is not served, or listing it
// is forbidden (recorded, see Missing).
func (r *Reader) Functions(ctx context.Context) (fns []Function, ok bool, err error) {
	m, err := r.mapping(schema.GroupVersionKind{Group: xp.GroupPkg, Version: "v1", Kind: "Function"})
	if err != nil {
		return nil, false, nil //nolint:nilerr // Not served: the cluster runs no Functions this reader can see.
	}
	ok, err = r.list(ctx, m, "", metav1.ListOptions{}, func(l *unstructured.UnstructuredList) error {
		for i := range l.Items {
			pkg, _, _ := unstructured.NestedString(l.Items[i].Object, "spec", "package")
			fns = append(fns, Function{Name: l.Items[i].GetName(), Package: pkg})
		}
		return nil
	})
	return fns, ok, err
}

// EnvironmentConfigs lists the cluster's EnvironmentConfigs (at the version
// the API server prefers).
func (r *Reader) EnvironmentConfigs(ctx context.Context) ([]*unstructured.Unstructured, error) {
	return r.listAll(ctx, schema.GroupVersionKind{Group: xp.GroupAPIExtensions, Kind: "EnvironmentConfig"}, "", metav1.ListOptions{})
}

// SecretDigests reads a Secret and returns the digest (Digest) of each of
// its values by key; the values themselves are dropped.
func (r *Reader) SecretDigests(ctx context.Context, namespace, name string) (*Secret, error) {
	m, err := r.mapping(schema.GroupVersionKind{Version: "v1", Kind: "Secret"})
	if err != nil {
		return nil, err
	}
	u, state, err := r.get(ctx, m, namespace, name)
	if err != nil {
		return nil, err
	}
	s := &Secret{Namespace: namespace, Name: name, State: state}
	if u == nil {
		return s, nil
	}
	data, _, _ := unstructured.NestedMap(u.Object, "data")
	s.Digests = make(map[string]string, len(data))
	for k, v := range data {
		enc, _ := v.(string)
		raw, err := base64.StdEncoding.DecodeString(enc)
		if err != nil {
			return nil, errors.Wrapf(err, "cannot decode key %q of secret %s/%s", k, namespace, name)
		}
		s.Digests[k] = r.Digest(raw)
	}
	return s, nil
}

// Definitions lists the cluster's CompositeResourceDefinitions at
// apiextensions.crossplane.io/v1 (Crossplane v2 serves its XRDs at v1 as
// well).
func (r *Reader) Definitions(ctx context.Context) ([]*unstructured.Unstructured, error) {
	return r.listAll(ctx, schema.GroupVersionKind{Group: xp.GroupAPIExtensions, Version: "v1", Kind: "CompositeResourceDefinition"}, "", metav1.ListOptions{})
}

// Get reads the object an apiVersion, kind, namespace and name refer to,
// with a get request. The namespace is ignored for a cluster-scoped kind. It
// returns nil and the reason (NotFound, Forbidden, Unserved) when the object
// cannot be read; Forbidden is also recorded (Missing).
func (r *Reader) Get(ctx context.Context, apiVersion, kind, namespace, name string) (*unstructured.Unstructured, State, error) {
	return r.getRef(ctx, apiVersion, kind, namespace, name)
}

// CRD reads, with a get request, the CustomResourceDefinition that serves
// group and kind (named <plural>.<group> after discovery's resource), or
// returns nil and why not: Unserved when no such kind is served (or it is
// not served by a CRD), NotFound, Forbidden (recorded).
func (r *Reader) CRD(ctx context.Context, group, kind string) (*unstructured.Unstructured, State, error) {
	m, err := r.mapping(schema.GroupVersionKind{Group: group, Kind: kind})
	if errors.Is(err, errUnserved) {
		return nil, Unserved, nil
	}
	if err != nil {
		return nil, "", err
	}
	crd, err := r.mapping(schema.GroupVersionKind{Group: "apiextensions.k8s.io", Version: "v1", Kind: "CustomResourceDefinition"})
	if errors.Is(err, errUnserved) {
		return nil, Unserved, nil
	}
	if err != nil {
		return nil, "", err
	}
	return r.get(ctx, crd, "", m.Resource.Resource+"."+group)
}
