; Everything extraction needs from a Python file, in one pass over the tree (one query walks the
; tree once; three separate queries cost nearly three walks). python.py reads the captures.

; Definitions. Scopes (Class.method, local or not) are worked out from byte ranges in python.py.
(class_definition name: (identifier)) @definition.class
(function_definition name: (identifier)) @definition.function
(type_alias_statement left: (type (identifier))) @definition.type
(expression_statement (assignment left: (identifier))) @definition.variable

; Every import statement, at any depth: inside functions and `if TYPE_CHECKING:` blocks too.
(import_statement) @import
(import_from_statement) @from

; Identifier uses. `@name` is every identifier; `@member`, `@keyword` and `@imported` mark
; identifiers that are not a use of a binding (a member after a dot, a keyword-argument name, an
; import's own words), which python.py subtracts. `@chain`: attribute expressions, kept when they
; are a plain dotted path such as `os.path.join`.
(identifier) @name
(attribute attribute: (identifier) @member)
(keyword_argument name: (identifier) @keyword)
(dotted_name (identifier) @imported)
(aliased_import alias: (identifier) @imported)
(attribute) @chain

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
