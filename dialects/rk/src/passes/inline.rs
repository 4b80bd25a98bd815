//! Inlining of device functions into their callers, in an order computed from the call graph.
//!
//! GPU kernels in rkc's subset have no calls at run time: every `rk.call` is replaced by the
//! callee's body. Recursion therefore cannot be compiled, and the call graph names the cycle.
//!
//! A call `%r = rk.call @f(%a)` becomes
//!
//! ```text
//! %r = rk.loop -> T {
//!   ... the body of @f, its parameters replaced by %a ...
//!   rk.break [d] %v        // each `rk.return %v`, d = the loops of @f around it
//! }
//! ```
//!
//! The loop runs once (a function body always ends in `rk.return`); LLVM removes it.

use crate::ir::{Func, LoopHint, Module, Op, OpKind, Region, ValueId};
use petgraph::algo::{tarjan_scc, toposort};
use petgraph::graph::{DiGraph, NodeIndex};
use std::collections::HashMap;

/// The functions of a module and who calls whom.
pub struct CallGraph {
    pub graph: DiGraph<String, ()>,
    pub nodes: HashMap<String, NodeIndex>,
}

impl CallGraph {
    pub fn new(module: &Module) -> CallGraph {
        let mut graph = DiGraph::new();
        let mut nodes = HashMap::new();
        for f in &module.funcs {
            nodes.insert(f.name.clone(), graph.add_node(f.name.clone()));
        }
        for f in &module.funcs {
            let mut callees = Vec::new();
            collect_callees(&f.body, &mut callees);
            for callee in callees {
                if let (Some(&a), Some(&b)) = (nodes.get(&f.name), nodes.get(&callee)) {
                    graph.update_edge(a, b, ());
                }
            }
        }
        CallGraph { graph, nodes }
    }

    /// A cycle of calls, as the names along it (the first name repeated at the end), if any.
    pub fn cycle(&self) -> Option<Vec<String>> {
        for scc in tarjan_scc(&self.graph) {
            let recursive = scc.len() > 1 || self.graph.contains_edge(scc[0], scc[0]);
            if !recursive {
                continue;
            }
            // Walk the cycle inside the component from its first-defined function.
            let start = *scc.iter().min()?;
            let mut path = vec![start];
            let mut at = start;
            loop {
                let next = self.graph.neighbors(at).filter(|n| scc.contains(n)).min()?;
                if next == start || path.contains(&next) {
                    path.push(next);
                    break;
                }
                path.push(next);
                at = next;
            }
            return Some(path.into_iter().map(|n| self.graph[n].clone()).collect());
        }
        None
    }

    /// Writes the call graph in Graphviz's dot language.
    pub fn to_dot(&self) -> String {
        let mut out = String::from("digraph calls {\n");
        for n in self.graph.node_indices() {
            out.push_str(&format!("  \"{}\";\n", self.graph[n]));
        }
        for e in self.graph.edge_indices() {
            if let Some((a, b)) = self.graph.edge_endpoints(e) {
                out.push_str(&format!("  \"{}\" -> \"{}\";\n", self.graph[a], self.graph[b]));
            }
        }
        out.push_str("}\n");
        out
    }
}

fn collect_callees(region: &Region, out: &mut Vec<String>) {
    for op in &region.ops {
        if let OpKind::Call { callee } = &op.kind {
            out.push(callee.clone());
        }
        for r in &op.regions {
            collect_callees(r, out);
        }
    }
}

/// A call cycle, which rkc cannot compile.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Recursion {
    /// The functions along the cycle; the first is repeated at the end.
    pub cycle: Vec<String>,
}

/// Inlines every call, callees first, so that no `rk.call` remains in any function, and then
/// drops the device functions if the module has kernels.
pub fn inline_calls(module: &mut Module) -> Result<(), Recursion> {
    let graph = CallGraph::new(module);
    if let Some(cycle) = graph.cycle() {
        return Err(Recursion { cycle });
    }
    // Edges go from caller to callee; inline in reverse topological order, so that each
    // callee is already call-free when its callers take its body.
    let order = toposort(&graph.graph, None)
        .map_err(|c| Recursion { cycle: vec![graph.graph[c.node_id()].clone()] })?;
    for node in order.into_iter().rev() {
        let name = &graph.graph[node];
        let Some(index) = module.funcs.iter().position(|f| &f.name == name) else { continue };
        let mut func = module.funcs[index].clone();
        let body = std::mem::take(&mut func.body);
        func.body = inline_region(&mut func, body, module);
        module.funcs[index] = func;
    }
    // Every call is gone, so device functions are dead once kernels have taken their bodies;
    // a module of device functions alone (an rk test file) keeps them.
    if module.funcs.iter().any(|f| f.kernel) {
        module.funcs.retain(|f| f.kernel);
    }
    Ok(())
}

fn inline_region(caller: &mut Func, region: Region, module: &Module) -> Region {
    let mut ops = Vec::with_capacity(region.ops.len());
    for mut op in region.ops {
        op.regions = std::mem::take(&mut op.regions)
            .into_iter()
            .map(|r| inline_region(caller, r, module))
            .collect();
        match &op.kind {
            OpKind::Call { callee } => match module.func(callee) {
                Some(callee) => ops.push(inline_call(caller, callee, &op)),
                // The verifier rejects calls to missing functions; keep the op so it still does.
                None => ops.push(op),
            },
            _ => ops.push(op),
        }
    }
    Region { ops }
}

/// The `rk.loop` that replaces one call.
fn inline_call(caller: &mut Func, callee: &Func, call: &Op) -> Op {
    let mut map: HashMap<ValueId, ValueId> = HashMap::new();
    for (p, arg) in callee.params.iter().zip(&call.operands) {
        map.insert(p.value, *arg);
    }
    let body = clone_region(caller, callee, &callee.body, &mut map, 0, call.loc);
    Op {
        kind: OpKind::Loop { hint: LoopHint::Plain },
        operands: vec![],
        results: call.results.clone(),
        regions: vec![body],
        loc: call.loc,
    }
}

/// Copies a callee's region into the caller. Ops without a location (the device core's and
/// derived impls', which rkc writes, not the user) take the call's: after inlining, a panic in
/// `Option::unwrap` reports the user's `.unwrap()`.
fn clone_region(
    caller: &mut Func,
    callee: &Func,
    region: &Region,
    map: &mut HashMap<ValueId, ValueId>,
    loop_depth: u32,
    call_loc: crate::Loc,
) -> Region {
    let mut ops = Vec::with_capacity(region.ops.len());
    for op in &region.ops {
        let operands = op.operands.iter().map(|v| *map.get(v).unwrap_or(v)).collect();
        let results = op
            .results
            .iter()
            .map(|r| {
                let ty = callee.ty(*r).cloned().unwrap_or(crate::Type::Unit);
                let new = caller.new_value(ty);
                map.insert(*r, new);
                new
            })
            .collect();
        let inner_depth = if op.kind.is_loop() { loop_depth + 1 } else { loop_depth };
        let regions = op
            .regions
            .iter()
            .map(|r| clone_region(caller, callee, r, map, inner_depth, call_loc))
            .collect();
        let kind = match &op.kind {
            // A return leaves the inlined body: the wrapping loop, past the callee's own loops.
            OpKind::Return => OpKind::Break { depth: loop_depth },
            other => other.clone(),
        };
        ops.push(Op {
            kind,
            operands,
            results,
            regions,
            loc: if op.loc == crate::Loc::default() { call_loc } else { op.loc },
        });
    }
    Region { ops }
}
