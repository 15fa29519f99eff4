package plan

import (
	"context"
	"fmt"
	"testing"

	"github.com/xpmigrate/xpmigrate/internal/jsonobj"
)

// BenchmarkBuild200 plans the move of 200 claims (the fixture's, copied)
// from an export: conversion aside, what plan v2 spends per run.
func BenchmarkBuild200(b *testing.B) {
	m, err := LoadManifests("testdata/platform.yaml", "testdata/live.yaml")
	if err != nil {
		b.Fatal(err)
	}
	var objs []map[string]any
	for _, o := range m.Objects() {
		if o["kind"] == "CompositeResourceDefinition" || o["kind"] == "Composition" {
			objs = append(objs, o)
		}
	}
	for i := range 200 {
		suffix := fmt.Sprintf("-%03d", i)
		for _, o := range m.Objects() {
			if o["kind"] == "CompositeResourceDefinition" || o["kind"] == "Composition" {
				continue
			}
			c := jsonobj.DeepCopy(o)
			md := c["metadata"].(map[string]any)
			md["name"] = jsonobj.AsString(md["name"]) + suffix
			if ref, ok := jsonobj.Value(c, "spec", "claimRef").(map[string]any); ok {
				ref["name"] = jsonobj.AsString(ref["name"]) + suffix
			}
			if refs, ok := jsonobj.Value(c, "spec", "resourceRefs").([]any); ok {
				for _, r := range refs {
					r.(map[string]any)["name"] = jsonobj.AsString(r.(map[string]any)["name"]) + suffix
				}
			}
			objs = append(objs, c)
		}
	}
	l, err := NewManifests(objs...).Legacy(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	o := Options{Convert: benchConvertOptions(b)}
	d, err := Convert(l, o.Convert)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		p, err := Build(context.Background(), l, d, o)
		if err != nil {
			b.Fatal(err)
		}
		if len(p.XRs) != 200 || p.Failed() {
			b.Fatalf("want 200 XRs planned without errors, got %d (failed %v)", len(p.XRs), p.Failed())
		}
	}
}
