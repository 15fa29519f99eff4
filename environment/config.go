package environment

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"sort"
	"strings"

	"github.com/pkg/errors"
	kjson "k8s.io/apimachinery/pkg/util/json"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	sigsjson "sigs.k8s.io/json"
	"sigs.k8s.io/yaml"

	"github.com/xpmigrate/xpmigrate/internal/jsonobj"
	"github.com/xpmigrate/xpmigrate/internal/xp"
)

// EnvironmentConfig API group, versions and kind. Crossplane v1.17 served
// v1alpha1 only; later releases serve v1beta1 too, with an identical schema.
const (
	Group           = xp.GroupAPIExtensions
	VersionV1Alpha1 = "v1alpha1"
	VersionV1Beta1  = "v1beta1"
	KindConfig      = "EnvironmentConfig"

	APIVersionV1Alpha1 = Group + "/" + VersionV1Alpha1
	APIVersionV1Beta1  = Group + "/" + VersionV1Beta1
)

// The in-memory environment's own apiVersion and kind, stamped by both
// engines (native always, the function only when data sets neither).
const (
	EnvironmentAPIVersion = xp.EnvironmentAPIVersion
	EnvironmentKind       = xp.EnvironmentKind
)

// A Config is one EnvironmentConfig: cluster-scoped, with metadata and a
// schemaless data map. Nothing else of the object matters to either engine.
//
// Data holds each value as the JSON it was written as, so that each engine
// can decode it its own way: the native engine merges it decoded by the
// plain Go decoder (every number float64) but sorts by it decoded by the
// Kubernetes decoder (integers int64); the function receives it as wire
// values (every number float64).
type Config struct {
	// APIVersion is apiextensions.crossplane.io/v1alpha1 or v1beta1. Both
	// name the same object; neither engine looks at it when fetching.
	APIVersion string

	Name        string
	Labels      map[string]string
	Annotations map[string]string

	// Data is nil when the object has no data (or data: null).
	Data map[string]json.RawMessage

	// Source optionally says where the config was read from (a file and
	// document), for messages. Neither engine reads it.
	Source string
}

// sameObject reports whether c and o are copies of one object: the same
// name, labels, annotations and data (compared as JSON values), whatever
// API version each was read at.
func (c Config) sameObject(o Config) bool {
	if c.Name != o.Name || !equalStrings(c.Labels, o.Labels) || !equalStrings(c.Annotations, o.Annotations) {
		return false
	}
	if (c.Data == nil) != (o.Data == nil) || len(c.Data) != len(o.Data) {
		return false
	}
	a, errA := decodePlain(c.Data)
	b, errB := decodePlain(o.Data)
	if errA != nil || errB != nil {
		return false
	}
	return reflect.DeepEqual(a, b)
}

// equalStrings compares two string maps, nil and empty alike.
func equalStrings(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// origin names where a config came from: its Source, else its apiVersion.
func (c Config) origin() string {
	if c.Source != "" {
		return c.Source
	}
	if c.APIVersion != "" {
		return c.APIVersion
	}
	return "(unknown source)"
}

// IsConfigAPIVersion reports whether apiVersion is one EnvironmentConfig is
// served at.
func IsConfigAPIVersion(apiVersion string) bool {
	return apiVersion == APIVersionV1Alpha1 || apiVersion == APIVersionV1Beta1
}

// configDocument is the wire shape of an EnvironmentConfig or a list of
// them. Fields the API server would prune are ignored.
type configDocument struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Metadata   struct {
		Name        string            `json:"name"`
		Labels      map[string]string `json:"labels"`
		Annotations map[string]string `json:"annotations"`
	} `json:"metadata"`
	Data  map[string]json.RawMessage `json:"data"`
	Items []json.RawMessage          `json:"items"`
}

// Load reads EnvironmentConfigs from YAML or JSON: one or more YAML
// documents separated by `---`, or a stream of JSON objects. A document may
// also be a List (kind List or EnvironmentConfigList) whose items are
// EnvironmentConfigs, as `kubectl get -o yaml` prints them. Empty documents
// are skipped; anything else is an error naming the document.
//
// YAML is read as kubectl reads it (sigs.k8s.io/yaml), so YAML 1.1 words
// such as unquoted `yes` become booleans, as they did in the cluster.
func Load(b []byte) ([]Config, error) {
	docs, err := splitDocuments(b)
	if err != nil {
		return nil, err
	}
	var out []Config
	for i, d := range docs {
		cs, err := decodeDocument(d)
		if err != nil {
			return nil, errors.Wrapf(err, "cannot load document %d", i+1)
		}
		out = append(out, cs...)
	}
	return out, nil
}

// splitDocuments returns each non-empty document of b as JSON.
func splitDocuments(b []byte) ([]json.RawMessage, error) {
	trimmed := bytes.TrimSpace(b)
	if len(trimmed) == 0 {
		return nil, nil
	}
	if trimmed[0] == '{' || trimmed[0] == '[' {
		var out []json.RawMessage
		dec := json.NewDecoder(bytes.NewReader(trimmed))
		for {
			var m json.RawMessage
			err := dec.Decode(&m)
			if errors.Is(err, io.EOF) {
				return out, nil
			}
			if err != nil {
				return nil, errors.Wrapf(err, "cannot decode JSON document %d", len(out)+1)
			}
			out = append(out, m)
		}
	}
	var out []json.RawMessage
	r := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(b)))
	for n := 1; ; n++ {
		doc, err := r.Read()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, errors.Wrapf(err, "cannot read YAML document %d", n)
		}
		j, err := yaml.YAMLToJSON(doc)
		if err != nil {
			return nil, errors.Wrapf(err, "cannot convert YAML document %d to JSON", n)
		}
		if t := bytes.TrimSpace(j); len(t) == 0 || bytes.Equal(t, []byte("null")) {
			continue
		}
		out = append(out, j)
	}
}

func decodeDocument(b json.RawMessage) ([]Config, error) {
	if t := bytes.TrimSpace(b); bytes.Equal(t, []byte("null")) {
		return nil, nil
	}
	d := configDocument{}
	if err := sigsjson.UnmarshalCaseSensitivePreserveInts(b, &d); err != nil {
		return nil, errors.Wrap(err, "cannot decode EnvironmentConfig")
	}
	if d.Kind == "List" || (d.Kind == KindConfig+"List" && IsConfigAPIVersion(d.APIVersion)) {
		var out []Config
		for i, item := range d.Items {
			cs, err := decodeDocument(item)
			if err != nil {
				return nil, errors.Wrapf(err, "cannot load list item %d", i)
			}
			out = append(out, cs...)
		}
		return out, nil
	}
	if !IsConfigAPIVersion(d.APIVersion) || d.Kind != KindConfig {
		return nil, errors.Errorf("%s %s is not an EnvironmentConfig (want %s or %s, kind %s)", d.APIVersion, d.Kind, APIVersionV1Alpha1, APIVersionV1Beta1, KindConfig)
	}
	if d.Metadata.Name == "" {
		return nil, errors.New("EnvironmentConfig has no metadata.name")
	}
	return []Config{{
		APIVersion:  d.APIVersion,
		Name:        d.Metadata.Name,
		Labels:      d.Metadata.Labels,
		Annotations: d.Metadata.Annotations,
		Data:        d.Data,
	}}, nil
}

// object returns the Config as the native engine sees it when it reads a
// field path from it (when sorting): the typed object converted to
// unstructured content, integers int64. Only the data keys named are
// decoded (all of them for an empty non-nil slice, none for nil), since a
// sort reads one field.
func (c Config) object(dataKeys []string) (map[string]any, error) {
	md := c.metadata()
	o := map[string]any{
		"apiVersion": c.APIVersion,
		"kind":       KindConfig,
		"metadata":   md,
	}
	if dataKeys == nil || len(c.Data) == 0 {
		return o, nil
	}
	if len(dataKeys) == 0 {
		dataKeys = jsonobj.SortedKeys(c.Data)
	}
	data := make(map[string]any, len(dataKeys))
	for _, k := range dataKeys {
		raw, ok := c.Data[k]
		if !ok {
			continue
		}
		var v any
		if err := kjson.Unmarshal(raw, &v); err != nil {
			return nil, errors.Wrapf(err, "cannot decode data key %q of EnvironmentConfig %q", k, c.Name)
		}
		data[k] = v
	}
	o["data"] = data
	return o, nil
}

// metadata returns the Config's metadata as an object: name, and labels
// and annotations where it has some.
func (c Config) metadata() map[string]any {
	md := map[string]any{"name": c.Name}
	if len(c.Labels) > 0 {
		md["labels"] = stringMap(c.Labels)
	}
	if len(c.Annotations) > 0 {
		md["annotations"] = stringMap(c.Annotations)
	}
	return md
}

// wireObject returns the Config as a function receives it: the object
// fetched at apiVersion, every number a float64.
func (c Config) wireObject(apiVersion string) (map[string]any, error) {
	md := c.metadata()
	o := map[string]any{
		"apiVersion": apiVersion,
		"kind":       KindConfig,
		"metadata":   md,
	}
	if c.Data == nil {
		return o, nil
	}
	data, err := decodePlain(c.Data)
	if err != nil {
		return nil, errors.Wrapf(err, "cannot decode data of EnvironmentConfig %q", c.Name)
	}
	o["data"] = data
	return o, nil
}

// decodePlain decodes a data map with the plain Go JSON decoder, as both
// engines decode data and defaultData before merging: every number becomes
// a float64.
func decodePlain(d map[string]json.RawMessage) (map[string]any, error) {
	out := make(map[string]any, len(d))
	for k, raw := range d {
		var v any
		if len(raw) > 0 {
			if err := json.Unmarshal(raw, &v); err != nil {
				return nil, errors.Wrapf(err, "cannot decode key %q", k)
			}
		}
		out[k] = v
	}
	return out, nil
}

func stringMap(m map[string]string) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// A Set is the EnvironmentConfigs a selection can see: an in-memory stand-in
// for the cluster. It lists in name order, as the API server does.
type Set struct {
	byName map[string]*Config
	sorted []*Config
}

// NewSet returns a Set of the supplied configs. An EnvironmentConfig is
// cluster-scoped, and its v1alpha1 and v1beta1 forms are the same object,
// so copies of one object are one config (see Distinct): the first is
// kept. Two configs of one name that differ are a ConflictError.
func NewSet(configs ...Config) (*Set, error) {
	for i, c := range configs {
		if c.Name == "" {
			return nil, errors.Errorf("EnvironmentConfig at index %d has no name", i)
		}
	}
	keep, err := Distinct(configs)
	if err != nil {
		return nil, err
	}
	s := &Set{byName: make(map[string]*Config, len(keep)), sorted: make([]*Config, 0, len(keep))}
	for _, i := range keep {
		c := configs[i]
		s.byName[c.Name] = &c
		s.sorted = append(s.sorted, &c)
	}
	sort.Slice(s.sorted, func(i, j int) bool { return s.sorted[i].Name < s.sorted[j].Name })
	return s, nil
}

// Distinct returns, in order, the positions of the configs that are not a
// copy of an earlier one. Copies of one object carry the same name,
// labels, annotations and data (data compared as JSON values), whatever
// API version each was read at: `kubectl get` of each version an API
// server serves prints such copies. Two configs of one name that differ
// otherwise are a *ConflictError naming both.
func Distinct(configs []Config) ([]int, error) {
	first := make(map[string]int, len(configs))
	keep := make([]int, 0, len(configs))
	for i, c := range configs {
		j, ok := first[c.Name]
		if !ok {
			first[c.Name] = i
			keep = append(keep, i)
			continue
		}
		if !configs[j].sameObject(c) {
			return nil, &ConflictError{Name: c.Name, First: configs[j].origin(), Second: c.origin()}
		}
	}
	return keep, nil
}

// A ConflictError is two EnvironmentConfigs of one name whose content
// differs: they cannot both be the cluster's object.
type ConflictError struct {
	// Name is the EnvironmentConfig's name.
	Name string
	// First and Second say where each copy came from (its Source, else
	// its apiVersion).
	First, Second string
}

func (e *ConflictError) Error() string {
	return fmt.Sprintf("EnvironmentConfig %q is given twice with different content: %s and %s (the same object served at several API versions must carry the same labels, annotations and data)", e.Name, e.First, e.Second)
}

// Get returns the config of the supplied name.
func (s *Set) Get(name string) (Config, bool) {
	if s == nil {
		return Config{}, false
	}
	c, ok := s.byName[name]
	if !ok {
		return Config{}, false
	}
	return *c, true
}

// Len returns the number of configs in the set.
func (s *Set) Len() int {
	if s == nil {
		return 0
	}
	return len(s.sorted)
}

// List returns, in name order, the configs carrying every supplied label
// with exactly the supplied value. An empty selector lists every config.
func (s *Set) List(labels map[string]string) []Config {
	if s == nil {
		return nil
	}
	out := make([]Config, 0)
	for _, c := range s.sorted {
		if hasLabels(c.Labels, labels) {
			out = append(out, *c)
		}
	}
	return out
}

func hasLabels(have, want map[string]string) bool {
	for k, v := range want {
		got, ok := have[k]
		if !ok || got != v {
			return false
		}
	}
	return true
}

// Fetch resolves a function's requirements against the set, as Crossplane
// fetches required (or extra) resources: a selector by name yields zero or
// one object, a selector by labels every match in name order. A selector
// for anything but an EnvironmentConfig yields nothing. Every requirement
// gets an entry, empty when nothing matched, as on the wire.
//
// The apiVersions v1alpha1 and v1beta1 are treated as one (D41,
// docs/reference/gaps.md#known-gaps); objects are returned at the requested apiVersion with wire values.
func (s *Set) Fetch(r Requirements) (Resources, error) {
	out := make(Resources, len(r))
	for _, key := range jsonobj.SortedKeys(r) {
		sel := r[key]
		items := make([]map[string]any, 0)
		if sel.Kind == KindConfig && IsConfigAPIVersion(sel.APIVersion) {
			var cs []Config
			if sel.MatchLabels == nil {
				if c, ok := s.Get(sel.MatchName); ok {
					cs = []Config{c}
				}
			} else {
				cs = s.List(sel.MatchLabels)
			}
			for _, c := range cs {
				o, err := c.wireObject(sel.APIVersion)
				if err != nil {
					return nil, errors.Wrapf(err, "cannot fetch resources for %s", key)
				}
				items = append(items, o)
			}
		}
		out[key] = items
	}
	return out, nil
}

// quoteNames renders names as "a", "b".
func quoteNames(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = `"` + n + `"`
	}
	return strings.Join(q, ", ")
}
