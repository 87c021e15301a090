"""One random legal answer to any request, for every game's random-play tests and recorded playthroughs."""
import random


def random_answer(request, rng: random.Random):
    """Half the time (for a form) values chosen field by field from ``form.choices``; else a listed option."""
    if request.form is not None and rng.random() < 0.5:
        values = {}
        for field in request.form.fields:
            legal = request.form.choices(field.name, values)
            if field.multi:
                values[field.name] = [v for v in legal if rng.random() < 0.5]
            else:
                values[field.name] = rng.choice(legal) if legal else None
        return values
    return rng.choice(request.options).key
