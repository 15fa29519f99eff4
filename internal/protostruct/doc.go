// Package protostruct builds protobuf Struct values, the form every object
// takes in the function protocol, with fewer allocations than structpb's
// constructors: an Alloc hands out Values from slabs, so a tree of n values
// costs a few allocations per kind instead of two per value.
//
// An Alloc only allocates; what goes into a Value, and which Go values are
// accepted, is the caller's business:
//
//	var a protostruct.Alloc
//	s := a.Struct(2)
//	s.Fields["name"] = a.String("bucket")
//	s.Fields["size"] = a.Number(3)
//
// A Builder is the one conversion from JSON trees to Structs: it gives
// exactly what structpb.NewStruct gives (as Crossplane and the function SDK
// build a request's or a response's objects), NaN and the infinities kept,
// taking the Values from an Alloc:
//
//	var b protostruct.Builder
//	s, err := b.NewStruct(obj)
//
// The Values an Alloc returns are ordinary messages. A slab stays in memory
// while any Value cut from it is referenced.
package protostruct
