// Package fakecloud is the pretend cloud behind the test provider of the
// real-Crossplane e2e tier (e2e/crossplane/provider): a directory that holds
// every external resource the provider created (resources.json) and a log of
// every call the provider made to it (calls.jsonl, one JSON Call a line).
// The tests read both to prove what a migration did outside the cluster: a
// step that recreated a cloud resource shows as a Delete and a Create.
//
// An external resource is keyed by its type and its external name. The type
// is the managed resource's group and kind with the ".m." of a Crossplane v2
// namespaced group folded away, so a namespaced twin
// (ec2.aws.m.upbound.io/VPC) observes the same external resource as the
// cluster-scoped managed resource it replaces (ec2.aws.upbound.io/VPC) when
// both carry the same crossplane.io/external-name.
//
//	c, _ := fakecloud.Open(dir)
//	id, _ := c.Create(ref, "", params) // a new external resource, a new ID
//	calls, _ := fakecloud.ReadCalls(dir)
//	n := fakecloud.Count(calls, fakecloud.OpCreate)
//
// One process writes a directory at a time (the provider); readers may read
// it at any time: resources.json is replaced by rename, calls.jsonl only
// grows by whole lines.
package fakecloud

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"sync"

	"github.com/pkg/errors"
)

// The operations the provider performs on the cloud.
const (
	OpObserve = "Observe"
	OpCreate  = "Create"
	OpUpdate  = "Update"
	OpDelete  = "Delete"
)

// File names inside a cloud directory.
const (
	ResourcesFile = "resources.json"
	CallsFile     = "calls.jsonl"
)

// A Ref names the managed resource a call was made for.
type Ref struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Namespace  string `json:"namespace,omitempty"`
	Name       string `json:"name"`
	UID        string `json:"uid"`
}

// Type is the external resource type the managed resource stands for: its
// group, without a v2 ".m." part, and its kind.
func (r Ref) Type() string {
	group := r.APIVersion
	if i := strings.LastIndex(group, "/"); i >= 0 {
		group = group[:i]
	} else {
		group = ""
	}
	return strings.Replace(group, ".m.", ".", 1) + "/" + r.Kind
}

// A Call is one line of calls.jsonl.
type Call struct {
	Op           string `json:"op"`
	Resource     Ref    `json:"resource"`
	ExternalName string `json:"externalName,omitempty"`
	// Found is whether Observe found the external resource.
	Found bool `json:"found,omitempty"`
	// Params are the parameters a Create or Update wrote.
	Params map[string]any `json:"params,omitempty"`
}

// An External is an external resource.
type External struct {
	Type   string         `json:"type"`
	ID     string         `json:"id"`
	Params map[string]any `json:"params"`
	// CreatedFor is the managed resource whose Create made it.
	CreatedFor Ref `json:"createdFor"`
}

// A Cloud is an open cloud directory.
type Cloud struct {
	dir string

	mu        sync.Mutex
	resources map[string]External
	calls     *os.File
}

// Open opens (creating when needed) the cloud in dir.
func Open(dir string) (*Cloud, error) {
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return nil, errors.Wrapf(err, "cannot create %q", dir)
	}
	rs, err := ReadResources(dir)
	if err != nil {
		return nil, err
	}
	c := &Cloud{dir: dir, resources: map[string]External{}}
	for _, r := range rs {
		c.resources[key(r.Type, r.ID)] = r
	}
	p := filepath.Join(dir, CallsFile)
	f, err := os.OpenFile(p, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600) //nolint:gosec,forbidigo // The fake cloud's own store and log, in a directory the test harness names.
	if err != nil {
		return nil, errors.Wrapf(err, "cannot open %q", p)
	}
	c.calls = f
	return c, nil
}

// Close closes the call log.
func (c *Cloud) Close() error {
	return errors.Wrap(c.calls.Close(), "cannot close the call log")
}

func key(typ, id string) string { return typ + "\x00" + id }

// Observe returns the external resource of ref's type named id, and records
// the call.
func (c *Cloud) Observe(ref Ref, id string) (External, bool, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.resources[key(ref.Type(), id)]
	return e, ok, c.record(Call{Op: OpObserve, Resource: ref, ExternalName: id, Found: ok})
}

// Create makes a new external resource of ref's type and returns its ID:
// name when it is not empty (a resource its user names, such as one whose
// crossplane.io/external-name a Composition sets), else a new ID, as a
// cloud that names its resources does. Creating a name that exists is an
// error, as in a cloud.
func (c *Cloud) Create(ref Ref, name string, params map[string]any) (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	id := name
	if id == "" {
		b := make([]byte, 4)
		if _, err := rand.Read(b); err != nil {
			return "", errors.Wrap(err, "cannot generate an ID")
		}
		id = strings.ToLower(ref.Kind) + "-" + hex.EncodeToString(b)
	}
	if _, exists := c.resources[key(ref.Type(), id)]; exists {
		return "", errors.Errorf("cannot create %s %q: it already exists", ref.Type(), id)
	}
	c.resources[key(ref.Type(), id)] = External{Type: ref.Type(), ID: id, Params: params, CreatedFor: ref}
	if err := c.save(); err != nil {
		return "", err
	}
	return id, c.record(Call{Op: OpCreate, Resource: ref, ExternalName: id, Params: params})
}

// Update replaces the parameters of the external resource named id.
func (c *Cloud) Update(ref Ref, id string, params map[string]any) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	k := key(ref.Type(), id)
	e, ok := c.resources[k]
	if !ok {
		return errors.Errorf("cannot update %s %q: no such external resource", ref.Type(), id)
	}
	e.Params = params
	c.resources[k] = e
	if err := c.save(); err != nil {
		return err
	}
	return c.record(Call{Op: OpUpdate, Resource: ref, ExternalName: id, Params: params})
}

// Delete removes the external resource named id; deleting one that is gone
// succeeds, as most clouds' APIs do.
func (c *Cloud) Delete(ref Ref, id string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.resources, key(ref.Type(), id))
	if err := c.save(); err != nil {
		return err
	}
	return c.record(Call{Op: OpDelete, Resource: ref, ExternalName: id})
}

// UpToDate says whether an external resource's parameters are want.
func UpToDate(e External, want map[string]any) bool {
	if len(e.Params) == 0 && len(want) == 0 {
		return true
	}
	return reflect.DeepEqual(normalize(e.Params), normalize(want))
}

// normalize gives params the shape they have after a JSON round trip, so a
// value read from resources.json compares equal to one read from the API.
func normalize(params map[string]any) any {
	b, err := json.Marshal(params)
	if err != nil {
		return params
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		return params
	}
	return out
}

func (c *Cloud) record(call Call) error {
	b, err := json.Marshal(call)
	if err != nil {
		return errors.Wrap(err, "cannot encode a call")
	}
	_, err = c.calls.Write(append(b, '\n'))
	return errors.Wrap(err, "cannot append to the call log")
}

func (c *Cloud) save() error {
	rs := make([]External, 0, len(c.resources))
	for _, r := range c.resources {
		rs = append(rs, r)
	}
	sort.Slice(rs, func(i, j int) bool { return key(rs[i].Type, rs[i].ID) < key(rs[j].Type, rs[j].ID) })
	b, err := json.MarshalIndent(rs, "", "  ")
	if err != nil {
		return errors.Wrap(err, "cannot encode the external resources")
	}
	p := filepath.Join(c.dir, ResourcesFile)
	tmp := p + ".tmp"
	if err := os.WriteFile(tmp, b, 0o600); err != nil {
		return errors.Wrapf(err, "cannot write %q", tmp)
	}
	return errors.Wrapf(os.Rename(tmp, p), "cannot replace %q", p)
}

// ReadResources reads the external resources of the cloud in dir, sorted by
// type and ID; none when the cloud has none yet.
func ReadResources(dir string) ([]External, error) {
	p := filepath.Join(dir, ResourcesFile)
	b, err := os.ReadFile(p) //nolint:gosec,forbidigo // The fake cloud's own store and log, in a directory the test harness names.
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, errors.Wrapf(err, "cannot read %q", p)
	}
	var rs []External
	return rs, errors.Wrapf(json.Unmarshal(b, &rs), "cannot parse %q", p)
}

// ReadCalls reads the call log of the cloud in dir, oldest first.
func ReadCalls(dir string) ([]Call, error) {
	p := filepath.Join(dir, CallsFile)
	b, err := os.ReadFile(p) //nolint:gosec,forbidigo // The fake cloud's own store and log, in a directory the test harness names.
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, errors.Wrapf(err, "cannot read %q", p)
	}
	var calls []Call
	s := bufio.NewScanner(bytes.NewReader(b))
	s.Buffer(make([]byte, 0, 64<<10), 16<<20)
	for n := 1; s.Scan(); n++ {
		var c Call
		if err := json.Unmarshal(s.Bytes(), &c); err != nil {
			return nil, errors.Wrapf(err, "cannot parse line %d of %q", n, p)
		}
		calls = append(calls, c)
	}
	return calls, errors.Wrapf(s.Err(), "cannot read %q", p)
}

// Count counts the calls of op.
func Count(calls []Call, op string) int {
	n := 0
	for _, c := range calls {
		if c.Op == op {
			n++
		}
	}
	return n
}
