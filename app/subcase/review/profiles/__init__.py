"""Profiles: what the editor taught across the files of a series, kept between sessions.

- ``profile``: the profile and its file format (``Profile``, ``ProfileError``);
- ``build``: building one from the edit logs of reviewed files;
- ``store``: where profiles live on disk (load, save, import, export);
- ``apply``: applying one to a file as it is opened or converted.
"""
