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
// The Values an Alloc returns are ordinary messages. A slab stays in memory
// while any Value cut from it is referenced.
package protostruct
