// wpapi 1.2 ships no types: the tests use it as the untyped JavaScript client it is.
declare module 'wpapi';
