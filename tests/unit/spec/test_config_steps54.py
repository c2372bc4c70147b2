

def test_a_section_of_blank_keys_and_an_inline_block_of_nulls_are_inputs_containers() -> None:
    section = ('# nightly\n[ask]\nsite=\nroom=\n\n[steps]\n'
               'one = run("price-room", room_id="ask.room", size=3, rate=2)\n'
               'two = run("log-day", note="x", site=ask.site)\n')
    inline = ('# nightly\nsettings = {\n  inputs: {site: null, room: ~},\n}\n'
              'run("price-room", room_id: inputs.room, size: 3, rate: 2)\n')
    for text in (section, inline):
        spec = read(text, "n.rb")
        assert {i.name for i in spec.inputs} == {"site", "room"}
        assert sources(step(spec, "price-room"))["room_id"] == "inputs.room"
    near = read(inline.replace("room: ~", "room: 4"), "n.rb")  # a value among them: no inputs container
    assert "room" not in {i.name for i in near.inputs or ()}
