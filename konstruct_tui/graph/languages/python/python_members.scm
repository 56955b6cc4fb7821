; The member tier's captures (see `languages/_python_member_facts.py`), compiled after python.scm
; into one query: a file's member facts are read in the same walk as the rest of its facts.
; `konstruct index` alone runs python.scm (the file graph needs none of these); the member tier
; runs both, on the first question that needs member uses.

; Member-level facts (python_members.py): what lets a receiver be typed where the source says so.
; `@bind`: `x = T(...)` / `self.x = T(...)`; `@annotated`: `x: T` / `self.x: T = ...`;
; `@param.type`: a typed parameter; `@returns`: a function's return annotation; `@oncall`: a member
; used on a call's result (`Console().print`, `get_console().print`); `@bases`: a class's bases.
(assignment left: [(identifier) (attribute)] right: (call function: [(identifier) (attribute)])) @bind
(assignment left: [(identifier) (attribute)] type: (type)) @annotated
(typed_parameter type: (type) @param.type)
(typed_default_parameter type: (type) @param.type)
(function_definition return_type: (type) @returns)
(attribute object: (call function: [(identifier) (attribute)]) attribute: (identifier) @oncall)
(class_definition superclasses: (argument_list) @bases)
(decorated_definition definition: (function_definition)) @decorated
; `@untyped`: a member used on a receiver no name can type (`items[0].run`, `(a or b).run`,
; `factories[k]().run`): by-name evidence.
(attribute
  object: [(subscript) (parenthesized_expression) (conditional_expression) (boolean_operator)
           (list_comprehension) (call function: [(subscript) (call) (parenthesized_expression)])]
  attribute: (identifier) @untyped)
; `@unbound`: a name bound where nothing states its type (an unannotated parameter, a loop
; target, `x = a or b`): a name written elsewhere as `x = Console()` is then not
; proven a Console here. `@entered`: a `with ... as` target (what `__enter__` returns); `@caught`:
; an `except T as e` target (an instance of T).
; `@assign`: assignments whose value is a name or an expression no call types (a literal value
; holds no project member and is left out).
((parameters (identifier) @unbound) (#not-any-of? @unbound "self" "cls"))
(lambda_parameters (identifier) @unbound)
(parameters (default_parameter name: (identifier) @unbound))
(for_statement left: [(identifier) @unbound (pattern_list (identifier) @unbound) (tuple_pattern (identifier) @unbound)])
(for_in_clause left: [(identifier) @unbound (pattern_list (identifier) @unbound) (tuple_pattern (identifier) @unbound)])
(except_clause (as_pattern alias: (as_pattern_target (identifier) @caught)))
(with_item value: (as_pattern alias: (as_pattern_target (identifier) @entered)))
(named_expression name: (identifier) @unbound)
(assignment left: [(pattern_list (identifier) @unbound) (tuple_pattern (identifier) @unbound)])
(assignment
  left: [(identifier) (attribute)]
  right: [(identifier) (attribute) (conditional_expression) (boolean_operator) (subscript) (await) (yield)
          (parenthesized_expression) (named_expression) (assignment)
          (call function: [(subscript) (call) (parenthesized_expression)])]) @assign
; `@returned`: the value of a `return` (what a function without a return annotation returns, when
; all its returns agree); `@yielded`: a `yield` (a generator returns none of its `return` values;
; a pytest fixture's value is what it yields).
(return_statement) @returned
(yield) @yielded
