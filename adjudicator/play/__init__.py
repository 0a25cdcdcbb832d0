"""Playing a record through the engine: :class:`Table`, the replay loop, adjudication.

Above the engine and the record layer, below the service: nothing here knows about
JSON answers, terminals or files.
"""
