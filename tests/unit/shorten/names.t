# shorten: template arguments become <...> only where that is shorter; operator names keep their < and >
std::map<int, std::string>::find(int const&)
std::_Rb_tree<Edge*, Edge*, std::_Identity<Edge*>, EdgeCmp, std::allocator<Edge*> >::_M_insert_unique<Edge* const&>(Edge* const&)
void std::vector<Node*, std::allocator<Node*> >::_M_realloc_insert<Node* const&>(__gnu_cxx::__normal_iterator<Node**, std::vector<Node*, std::allocator<Node*> > >, Node* const&)
operator<(Foo const&, Foo const&)
operator<<(std::ostream&, Bar<int> const&)
Vec<3>::operator<<=(int)
Ptr<Node>::operator->() const
std::unique_ptr<T>::operator->() const
bool operator<=><A, B>(A const&, B const&)
Cmp<int>::operator()(int, int)
a<b
x<>::f()
plain_c_function
(anonymous namespace)::Parser<char>::parse({lambda(int)#1}&&)
----
std::map<...>::find(int const&)
std::_Rb_tree<...>::_M_insert_unique<...>(Edge* const&)
void std::vector<...>::_M_realloc_insert<...>(__gnu_cxx::__normal_iterator<...>, Node* const&)
operator<(Foo const&, Foo const&)
operator<<(std::ostream&, Bar<int> const&)
Vec<3>::operator<<=(int)
Ptr<...>::operator->() const
std::unique_ptr<T>::operator->() const
bool operator<=><...>(A const&, B const&)
Cmp<int>::operator()(int, int)
a<b
x<>::f()
plain_c_function
(anonymous namespace)::Parser<...>::parse({lambda(int)#1}&&)
