//! Fights with allies beside the hero, played through [`Combat`] with scripted dice.
